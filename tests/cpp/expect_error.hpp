// Test support: the message of the InputError a call throws, and the matcher every bad-input test
// checks it with (the message must name the argument and the rule it breaks).
#pragma once

#include <gmock/gmock.h>

#include <string>

#include "positional/validate.hpp"

namespace positional::testing_support {

// The message of the InputError `call` throws, or "no error" when it returns. Any other exception
// propagates, so the test fails on it.
template <class Call>
std::string error_of(Call&& call) {
  try {
    call();
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

// Matches an error_of() message that names `field` (the argument, as the caller spells it) and
// states `rule` (what the argument must be, or what went wrong), e.g.
//   EXPECT_THAT(error_of([&] { rope_frequencies(7); }), names_field_and_rule("d", "must be even"));
// "no error" matches neither, so a call that stops throwing fails the test.
inline ::testing::Matcher<const std::string&> names_field_and_rule(const std::string& field,
                                                                   const std::string& rule) {
  return ::testing::AllOf(::testing::HasSubstr(field), ::testing::HasSubstr(rule));
}

}  // namespace positional::testing_support
