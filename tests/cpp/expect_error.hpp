// Test support: the message of the InputError a call throws, or "no error".
#pragma once

#include <string>

#include "positional/validate.hpp"

namespace positional::testing_support {

template <class Call>
std::string error_of(Call&& call) {
  try {
    call();
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace positional::testing_support
