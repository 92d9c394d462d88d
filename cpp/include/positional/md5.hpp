// MD5 message digest (RFC 1321), used only to derive the lesson's word seeds the way
// Python's hashlib.md5(word.encode()).hexdigest() does. Not for security.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace positional {

// The 16-byte MD5 digest of `bytes` (any bytes; a std::string holds UTF-8 text as its bytes).
std::array<std::uint8_t, 16> md5_digest(std::string_view bytes);

// The digest as 32 lowercase hexadecimal digits, like hashlib's hexdigest().
std::string md5_hex(std::string_view bytes);

}  // namespace positional
