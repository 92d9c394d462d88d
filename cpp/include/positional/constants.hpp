// Constants shared by every engine module, so no formula carries its own copy of π.
#pragma once

namespace positional {

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kTwoPi = 2.0 * kPi;

}  // namespace positional
