// Adapters between the engine's C++ types and JavaScript values, shared by every
// binding file in cpp/bindings/ (the only code in the project that includes Emscripten).
//
// Ownership rule for every array that crosses: the engine computes into a C++-owned
// Eigen buffer; to_float64_array() views that buffer from JavaScript and copies it
// (TypedArray.prototype.slice) into a new Float64Array owned by the JavaScript garbage
// collector. The C++ buffer is freed when the binding returns. Nothing returned needs
// .delete(), and no view of the WASM heap outlives the call (heap growth would empty it).
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "positional/types.hpp"
#include "positional/validate.hpp"

namespace positional::js {

using emscripten::val;

// Runs `body` and returns its result as a JavaScript value. Any C++ exception becomes a
// JavaScript Error object *returned* in place of the result; engine-errors.js (linked with
// --post-js) rethrows it once the C++ call has fully returned. Throwing from inside C++
// instead would skip the destructors of every frame in between, leaking the exception,
// its message and the argument handles on each bad input.
template <class Body>
val guarded(Body&& body) {
  std::string message;
  try {
    return val(body());
  } catch (const std::exception& error) {
    message = error.what();
  } catch (...) {
    message = "unexpected engine failure";
  }
  val error = val::global("Error").new_(message);
  error.set("name", val("EngineError"));
  return error;
}

// A JavaScript number argument; `undefined` takes `fallback` when one is given.
// Anything else that is not a number (a string, null, an object) is an error naming the argument.
inline double number_arg(const std::string& name, const val& value) {
  if (!value.isNumber()) {
    throw InputError(name + " must be a number, got " + value.typeOf().as<std::string>());
  }
  return value.as<double>();
}

inline double number_arg(const std::string& name, const val& value, double fallback) {
  return value.isUndefined() ? fallback : number_arg(name, value);
}

// A whole-number argument within [min_value, max_value].
inline std::int64_t integer_arg(const std::string& name, const val& value, std::int64_t min_value,
                                std::int64_t max_value) {
  return checked_integer(name, number_arg(name, value), min_value, max_value);
}

// A boolean argument; `undefined` is false.
inline bool bool_arg(const std::string& name, const val& value) {
  if (value.isUndefined()) return false;
  if (!value.isTrue() && !value.isFalse()) {
    throw InputError(name + " must be true or false, got " + value.typeOf().as<std::string>());
  }
  return value.isTrue();
}

// A string argument.
inline std::string string_arg(const std::string& name, const val& value) {
  if (!value.isString()) {
    throw InputError(name + " must be a string, got " + value.typeOf().as<std::string>());
  }
  return value.as<std::string>();
}

// Copies n doubles into a new JavaScript-owned Float64Array (one copy, no per-element calls).
inline val to_float64_array(const double* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

inline val to_float64_array(const Vector& v) {
  return to_float64_array(v.data(), static_cast<std::size_t>(v.size()));
}

// A row-major matrix as { rows, cols, data: Float64Array } with data[r * cols + c].
inline val matrix_to_js(const Matrix& m) {
  val out = val::object();
  out.set("rows", static_cast<double>(m.rows()));
  out.set("cols", static_cast<double>(m.cols()));
  out.set("data", to_float64_array(m.data(), static_cast<std::size_t>(m.size())));
  return out;
}

// Reads a JavaScript array or typed array of numbers. Non-numbers become NaN and are
// then rejected by the engine's own checks, which name the argument.
inline Vector vector_from_js(const std::string& name, const val& array) {
  if (array.isNull() || array.isUndefined() || array.isString() || !array["length"].isNumber()) {
    throw InputError(name + " must be an array of numbers");
  }
  const std::vector<double> values = emscripten::convertJSArrayToNumberVector<double>(array);
  return Eigen::Map<const Vector>(values.data(), static_cast<Eigen::Index>(values.size()));
}

// Reads { rows, cols, data } (row-major), as matrix_to_js writes it.
inline Matrix matrix_from_js(const std::string& name, const val& object) {
  if (object.isNull() || object.isUndefined() || !object["rows"].isNumber() || !object["cols"].isNumber()) {
    throw InputError(name + " must be an object { rows, cols, data }");
  }
  const std::int64_t rows = checked_integer(name + ".rows", object["rows"].as<double>(), 0, kMaxOutputDoubles);
  const std::int64_t cols = checked_integer(name + ".cols", object["cols"].as<double>(), 0, kMaxOutputDoubles);
  const Vector data = vector_from_js(name + ".data", object["data"]);
  if (data.size() != rows * cols) {
    throw InputError(name + ".data must hold rows × cols = " + std::to_string(rows * cols) + " numbers, got " +
                     std::to_string(data.size()));
  }
  return Eigen::Map<const Matrix>(data.data(), rows, cols);
}

}  // namespace positional::js
