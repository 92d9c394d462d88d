// Shared by the libFuzzer targets: decodes engine arguments from the fuzz bytes (awkward numbers
// included: NaN, ±inf, ±0, huge, tiny, negative, fractional) and checks the engine's contract —
// a call either returns finite results or throws positional::InputError; anything else aborts
// with a message, which libFuzzer records as a finding with the input that caused it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "positional/limits.hpp"
#include "positional/types.hpp"
#include "positional/validate.hpp"

namespace positional::fuzz {

// Work budget per call: requests the engine would accept but that are larger than this many
// doubles are skipped, so that the fuzzer spends its time on many inputs rather than a few huge
// tables. Requests over the engine's own cap (kMaxOutputDoubles) are still made: they must throw.
inline constexpr std::int64_t kWorkBudget = std::int64_t{1} << 16;

// Reads arguments from the fuzz bytes front to back; once the bytes run out every read gives 0.
class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  bool boolean() { return (byte() & 1) != 0; }

  // A double: one selector byte picks a special value, a small whole number, a fraction, or the
  // next 8 bytes as raw bits (any double at all, NaN payloads and subnormals included).
  double number() {
    static const double kSpecial[] = {0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      0.5,
                                      2.0,
                                      10000.0,
                                      std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::max(),
                                      -std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::min(),
                                      std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::epsilon(),
                                      1e300,
                                      -1e300,
                                      1e-300,
                                      9007199254740993.0,  // 2^53 + 1 (rounds to 2^53)
                                      16777216.0,          // 2^24
                                      16777217.0,
                                      4294967296.0,
                                      -2147483649.0,
                                      3.7,
                                      1e15,
                                      32768.0,
                                      4096.0,
                                      1.0000000000000002};
    constexpr std::uint8_t kSpecialCount = sizeof(kSpecial) / sizeof(kSpecial[0]);
    return special_or(kSpecial, [&](std::uint8_t selector) {
      if (selector < 160)
        return static_cast<double>(static_cast<int>(selector) - kSpecialCount - 32);  // −32 … 99
      if (selector < 200) return static_cast<double>(static_cast<std::int8_t>(byte())) / 16.0;  // eighths
      std::uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits = (bits << 8) | byte();
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    });
  }

  // A sinusoidal or RoPE base: mostly the usual 10000, otherwise any number().
  double base() { return boolean() ? 10000.0 : number(); }

  // A count or dimension, mostly small but sometimes negative, huge or just over a limit.
  std::int64_t integer() {
    static const std::int64_t kSpecial[] = {0,
                                            -1,
                                            -2,
                                            std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max(),
                                            kMaxOutputDoubles,
                                            kMaxOutputDoubles + 1,
                                            std::int64_t{1} << 32,
                                            std::int64_t{1} << 40,
                                            32768,
                                            32769,
                                            4097};
    constexpr std::uint8_t kSpecialCount = sizeof(kSpecial) / sizeof(kSpecial[0]);
    return special_or(kSpecial, [&](std::uint8_t selector) -> std::int64_t {
      if (selector < 200) return selector - kSpecialCount;             // 0 … 187
      return (static_cast<std::int64_t>(byte()) << 8 | byte()) - 256;  // −256 … 65279
    });
  }

  // n numbers (n from one byte, at most `max_length`).
  Vector vector(int max_length = 64) {
    const int n = byte() % (max_length + 1);
    Vector v(n);
    for (int i = 0; i < n; ++i) v[i] = number();
    return v;
  }

  // A vector of "mostly sensible" values: one byte each, −8 … 7.9375, with a rare special.
  Vector tame_vector(Eigen::Index n) {
    Vector v(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const std::uint8_t b = byte();
      v[i] = b >= 250 ? number() : (static_cast<double>(b) - 128.0) / 16.0;
    }
    return v;
  }

  // A rows × cols matrix (each up to `max_side`); entries tame, or fully fuzzed when `wild`.
  Matrix matrix(int max_side = 24) {
    const int rows = byte() % (max_side + 1);
    const int cols = byte() % (max_side + 1);
    const bool wild = (byte() & 7) == 0;
    Matrix m(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) m(r, c) = wild ? number() : tame_vector(1)[0];
    return m;
  }

  // The rest of the bytes as a string (any bytes: not necessarily UTF-8).
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
    pos_ = size_;
    return s;
  }

  // Bytes up to the next `separator` byte (or the end) as a string.
  std::string until(std::uint8_t separator) {
    std::string s;
    while (pos_ < size_ && data_[pos_] != separator) s.push_back(static_cast<char>(data_[pos_++]));
    if (pos_ < size_) ++pos_;
    return s;
  }

 private:
  // The scheme of number() and integer(): one selector byte, whose first values pick the entries
  // of `specials` in order; any other selector goes to `decode_other`, which may read more bytes.
  template <class T, std::size_t N, class DecodeOther>
  T special_or(const T (&specials)[N], DecodeOther&& decode_other) {
    const std::uint8_t selector = byte();
    return selector < N ? specials[selector] : decode_other(selector);
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// n + 1 without overflowing (a distance count from a maximum distance).
inline std::int64_t plus_one(std::int64_t n) {
  return n == std::numeric_limits<std::int64_t>::max() ? n : n + 1;
}

// True when rows × cols is within the engine's cap but over the fuzz work budget: skip the call.
inline bool over_budget(std::int64_t rows, std::int64_t cols) {
  if (rows <= 0 || cols <= 0) return false;
  if (rows > kMaxOutputDoubles / cols) return false;  // over the cap: the engine must throw
  return rows * cols > kWorkBudget;
}

// The work of a call as the engine counts it (limits.hpp): the factors multiplied, saturating at
// the largest int64 instead of overflowing; 0 when a factor is ≤ 0.
inline std::int64_t work_of(std::initializer_list<std::int64_t> factors) {
  std::int64_t steps = 1;
  for (const std::int64_t factor : factors) {
    if (factor <= 0) return 0;
    steps = steps > std::numeric_limits<std::int64_t>::max() / factor
                ? std::numeric_limits<std::int64_t>::max()
                : steps * factor;
  }
  return steps;
}

// Reports a broken contract and aborts (libFuzzer then saves the input). With the environment
// variable POSITIONAL_FUZZ_SURVEY set, prints each distinct (function, kind) once and goes on
// instead: a survey of every finding in one run, for triage.
inline void finding(const char* function, const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING in %s: %s\n", function, what.c_str());
  std::fflush(stderr);
  if (std::getenv("POSITIONAL_FUZZ_SURVEY") == nullptr) std::abort();
}

// Runs a call whose request is over one of the engine's caps: it must throw InputError naming the
// cap ("more than the cap of …") before doing the work; returning, or any other error, is a finding.
template <class Call>
void must_refuse_over_cap(const char* function, Call&& call) {
  try {
    call();
  } catch (const InputError& e) {
    if (std::strstr(e.what(), "more than the cap of") == nullptr) {
      finding(function, std::string("over the cap, refused without naming it: ") + e.what());
    }
    return;
  } catch (const std::exception& e) {
    finding(function, std::string("over the cap, exception other than InputError: ") + e.what());
    return;
  }
  finding(function, "accepted a request over its cap");
}

inline void require_finite_result(const char* function, double value) {
  if (!std::isfinite(value)) finding(function, "non-finite result " + std::to_string(value));
}
inline void require_finite_result(const char* function, const Matrix& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (!std::isfinite(m.data()[i]))
      finding(function, "non-finite entry " + std::to_string(m.data()[i]) + " at flat index " +
                            std::to_string(i) + " of a " + std::to_string(m.rows()) + " × " +
                            std::to_string(m.cols()) + " result");
}
inline void require_finite_result(const char* function, const Vector& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      finding(function, "non-finite entry " + std::to_string(v[i]) + " at index " + std::to_string(i) +
                            " of " + std::to_string(v.size()));
}

// require_finite_result on each part of one result, in order, all reported under the one name.
template <class... Parts>
void require_finite_parts(const char* function, const Parts&... parts) {
  (require_finite_result(function, parts), ...);
}

// Runs `call` (which returns nothing and checks its own results) under the contract: returning,
// or throwing InputError with a non-empty message, is fine; any other exception is a finding.
template <class Call>
void under_contract(const char* function, Call&& call) {
  try {
    call();
  } catch (const InputError& e) {
    if (std::strlen(e.what()) == 0) finding(function, "InputError with an empty message");
  } catch (const std::exception& e) {
    finding(function, std::string("exception other than InputError: ") + e.what());
  } catch (...) {
    finding(function, "non-standard exception");
  }
}

// The usual case of under_contract: `call` returns the engine's result (a number, vector or matrix),
// which must be finite unless the engine refused the request; both are reported under `function`.
template <class Call>
void must_return_finite(const char* function, Call&& call) {
  under_contract(function, [&] { require_finite_result(function, call()); });
}

// Defined by each target: decodes one input's arguments from `in` and makes its engine calls.
// The libFuzzer entry point, shared by all targets (fuzz_main.cpp), hands every input to it.
void fuzz_one_input(FuzzInput& in);

}  // namespace positional::fuzz
