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
#include <new>  // std::bad_alloc
#include <string>
#include <utility>
#include <vector>

#include "positional/attention.hpp"  // Permutation
#include "positional/types.hpp"
#include "positional/validate.hpp"

namespace positional::js {

using emscripten::val;

// Runs `body` and returns its result as a JavaScript value. Any C++ exception, a failed allocation
// (std::bad_alloc) included, becomes a JavaScript Error object *returned* in place of the result;
// the facade (engine-facade.mjs) rethrows it once the C++ call has fully returned. Throwing from inside C++
// instead would skip the destructors of every frame in between, leaking the exception,
// its message and the argument handles on each bad input.
template <class Body>
val guarded(Body&& body) {
  std::string message;
  try {
    return val(body());
  } catch (const std::bad_alloc&) {
    message = "the engine ran out of memory (its WebAssembly heap is at most 1 GiB)";
  } catch (const std::exception& error) {
    message = error.what();
  } catch (...) {
    message = "unexpected engine failure";
  }
  val error = val::global("Error").new_(message);
  error.set("name", val("EngineError"));
  return error;
}

// A JavaScript number argument. Anything else (a string, null, undefined, an object) is an error
// naming the argument: the facade fills in every default before the call.
inline double number_arg(const std::string& name, const val& value) {
  if (!value.isNumber()) {
    throw InputError(name + " must be a number, got " + value.typeOf().as<std::string>());
  }
  return value.as<double>();
}

// A whole-number argument within [min_value, max_value].
inline std::int64_t integer_arg(const std::string& name, const val& value, std::int64_t min_value,
                                std::int64_t max_value) {
  return checked_integer(name, number_arg(name, value), min_value, max_value);
}

// A model width d: any whole number the caps allow (the engine checks that it is even and > 0).
inline std::int64_t dimension_arg(const val& d) {
  return integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles);
}

// A boolean argument.
inline bool bool_arg(const std::string& name, const val& value) {
  if (!value.isTrue() && !value.isFalse()) {
    throw InputError(name + " must be true or false, got " + value.typeOf().as<std::string>());
  }
  return value.isTrue();
}

// A string argument of at most max_bytes UTF-8 bytes, well-formed (no lone UTF-16 surrogate, which
// Emscripten's conversion would pair with the next character) and free of NUL characters.
// The length is checked before the text is converted: Embind's conversion does not check its
// malloc, so a string that cannot fit must never reach it. A UTF-16 code unit takes at most
// 3 UTF-8 bytes, so length ≤ max_bytes bounds the copy to 3 × max_bytes.
inline std::string string_arg(const std::string& name, const val& value, std::int64_t max_bytes) {
  if (!value.isString()) {
    throw InputError(name + " must be a string, got " + value.typeOf().as<std::string>());
  }
  const double units = value["length"].as<double>();
  if (units > static_cast<double>(max_bytes)) {
    fail(name + " length", "at most " + format_number(static_cast<double>(max_bytes)) + " UTF-8 bytes",
         units);
  }
  if (value["isWellFormed"].typeOf().as<std::string>() == "function" && !value.call<bool>("isWellFormed")) {
    throw InputError(name + " must be valid Unicode text, got a lone UTF-16 surrogate");
  }
  std::string text = value.as<std::string>();
  if (static_cast<std::int64_t>(text.size()) > max_bytes) {
    fail(name + " length", "at most " + format_number(static_cast<double>(max_bytes)) + " UTF-8 bytes",
         static_cast<double>(text.size()));
  }
  if (text.find('\0') != std::string::npos)
    throw InputError(name + " must not contain a NUL character (U+0000)");
  return text;
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

// The length of a JavaScript array or typed array of numbers, checked: at most kMaxOutputDoubles.
inline double array_length(const std::string& name, const val& array) {
  if (array.isNull() || array.isUndefined() || array.isString())
    throw InputError(name + " must be an array of numbers");
  const val length_value = array["length"];
  if (!length_value.isNumber()) throw InputError(name + " must be an array of numbers");
  const double length = length_value.as<double>();
  if (!(length <= static_cast<double>(kMaxOutputDoubles))) {
    fail(name + " length", "at most " + format_number(static_cast<double>(kMaxOutputDoubles)), length);
  }
  if (!(length >= 0)) throw InputError(name + " must be an array of numbers");
  return length;
}

// Copies `array` into n doubles of the module's memory at `out` in one bulk copy
// (Float64Array.prototype.set on a view, which reads each element with Number(), as
// convertJSArrayToNumberVector does). Non-numbers become NaN and are then rejected by the engine's
// own checks, which name the argument.
inline void copy_from_js(const val& array, double* out, std::size_t n) {
  val(emscripten::typed_memory_view(n, out)).call<void>("set", array);
}

// Reads a JavaScript array or typed array of numbers.
inline Vector vector_from_js(const std::string& name, const val& array) {
  Vector out(static_cast<Eigen::Index>(array_length(name, array)));
  copy_from_js(array, out.data(), static_cast<std::size_t>(out.size()));
  return out;
}

// The rows and cols of a { rows, cols, data } object: whole numbers whose product fits the engine's
// output limit. Both matrix readers (this file's and bind_views.cpp's one-copy reader) start here.
struct MatrixShape {
  std::int64_t rows;
  std::int64_t cols;
};

inline MatrixShape matrix_shape_from_js(const std::string& name, const val& object) {
  if (object.isNull() || object.isUndefined() || !object["rows"].isNumber() || !object["cols"].isNumber()) {
    throw InputError(name + " must be an object { rows, cols, data }");
  }
  const std::int64_t rows =
      checked_integer(name + ".rows", object["rows"].as<double>(), 0, kMaxOutputDoubles);
  const std::int64_t cols =
      checked_integer(name + ".cols", object["cols"].as<double>(), 0, kMaxOutputDoubles);
  if (rows * cols > kMaxOutputDoubles) {
    fail(name + " size", "at most " + format_number(static_cast<double>(kMaxOutputDoubles)) + " numbers",
         static_cast<double>(rows * cols));
  }
  return {rows, cols};
}

// Reads { rows, cols, data } (row-major, as matrix_to_js writes it) with one copy: row-major storage
// is data in order, so data is set straight into the matrix's own memory.
inline Matrix matrix_from_js(const std::string& name, const val& object) {
  const auto [rows, cols] = matrix_shape_from_js(name, object);
  const val data = object["data"];
  const double length = array_length(name + ".data", data);
  const std::int64_t size = rows * cols;
  const auto must_hold = [&](double got) {
    return name + ".data must hold rows × cols = " + std::to_string(size) + " numbers, got " +
           format_number(got);
  };
  if (length != static_cast<double>(size)) throw InputError(must_hold(length));
  Matrix out(rows, cols);  // may grow the memory, which empties a view of it (engine.views) passed in as data
  const double length_now = data["length"].as<double>();
  if (length_now != length) {
    throw InputError(must_hold(length_now) +
                     " (an engine view expires at the next call: pass a copy, view.data.slice())");
  }
  copy_from_js(data, out.data(), static_cast<std::size_t>(out.size()));
  return out;
}

// A permutation as a new JavaScript-owned Float64Array of its indices.
inline val permutation_to_js(const Permutation& perm) {
  Vector values(static_cast<Eigen::Index>(perm.size()));
  for (std::size_t j = 0; j < perm.size(); ++j)
    values[static_cast<Eigen::Index>(j)] = static_cast<double>(perm[j]);
  return to_float64_array(values);
}

}  // namespace positional::js
