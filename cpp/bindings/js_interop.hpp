// Conversions between the engine's C++ types and JavaScript values, shared by every binding file in
// cpp/bindings/ (the only code in the project that includes Emscripten). Every argument arrives checked by
// the facade against the function's declaration (js_declaration.hpp): these convert, they do not check
// types again.
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
#include <initializer_list>
#include <new>  // std::bad_alloc
#include <string>
#include <type_traits>  // std::enable_if_t, std::is_same_v
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

// A whole number the facade has checked against its declared range (js_declaration.hpp, kInt): crosses
// as a double, used as an int64.
inline std::int64_t whole(double value) { return static_cast<std::int64_t>(value); }

// Copies n doubles into a new JavaScript-owned Float64Array (one copy, no per-element calls).
inline val to_float64_array(const double* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

inline val to_float64_array(const Vector& v) {
  return to_float64_array(v.data(), static_cast<std::size_t>(v.size()));
}

// One property of a plain object built by js_object(): its name and any value val can hold (a number, a
// bool, a std::string, or a val already made).
struct JsField {
  JsField(const char* field_name, val field_value) : name(field_name), value(std::move(field_value)) {}
  template <class T, class = std::enable_if_t<!std::is_same_v<std::decay_t<T>, val>>>
  JsField(const char* field_name, T&& field_value) : name(field_name), value(std::forward<T>(field_value)) {}
  const char* name;
  val value;
};

// A new plain JavaScript object holding `fields`, set in the order given (the order Object.keys and
// JSON.stringify then see).
inline val js_object(std::initializer_list<JsField> fields) {
  val out = val::object();
  for (const JsField& field : fields) out.set(field.name, field.value);
  return out;
}

// A new JavaScript array of convert(item) for each of `items`, in order.
template <class Item, class Convert>
val array_to_js(const std::vector<Item>& items, Convert convert) {
  val array = val::array();
  for (const Item& item : items) array.call<void>("push", convert(item));
  return array;
}

// Strings as a new JavaScript array of strings.
inline val strings_to_js(const std::vector<std::string>& items) {
  return array_to_js(items, [](const std::string& item) { return val(item); });
}

// A row-major matrix as { rows, cols, data: Float64Array } with data[r * cols + c].
inline val matrix_to_js(const Matrix& m) {
  return js_object({{"rows", static_cast<double>(m.rows())},
                    {"cols", static_cast<double>(m.cols())},
                    {"data", to_float64_array(m.data(), static_cast<std::size_t>(m.size()))}});
}

// Copies `array` into n doubles of the module's memory at `out` in one bulk copy
// (Float64Array.prototype.set on a view of that memory).
inline void copy_from_js(const val& array, double* out, std::size_t n) {
  val(emscripten::typed_memory_view(n, out)).call<void>("set", array);
}

// The length of `array` now: the facade's checks passed, but making room for the copy may grow the memory,
// which empties a view of it (engine.views) passed in as the argument. Such a view is refused rather than
// read as zeros.
inline void require_unmoved(const std::string& name, const val& array, double length,
                            const char* counted = "") {
  const double length_now = array["length"].as<double>();
  if (length_now != length) {
    throw InputError(name + " must hold " + counted + format_number(length) + " numbers, got " +
                     format_number(length_now) +
                     " (an engine view expires at the next call: pass a copy, view.data.slice())");
  }
}

// A vector argument (kVec: a Float64Array the facade has checked), copied into an Eigen vector.
inline Vector vector_from_js(const char* name, const val& array) {
  const double length = array["length"].as<double>();
  Vector out(static_cast<Eigen::Index>(length));
  require_unmoved(name, array, length);
  copy_from_js(array, out.data(), static_cast<std::size_t>(out.size()));
  return out;
}

// The rows of a matrix argument (kMat), read before its data (attention sizes its copy from them).
inline std::int64_t matrix_rows(const val& object) { return whole(object["rows"].as<double>()); }

// A matrix argument (kMat: { rows, cols, data } the facade has checked, data a Float64Array of
// rows × cols numbers, row-major as matrix_to_js writes it), copied in one copy: row-major storage is data
// in order.
inline Matrix matrix_from_js(const char* name, const val& object) {
  const val data = object["data"];
  Matrix out(matrix_rows(object), whole(object["cols"].as<double>()));
  require_unmoved(std::string(name) + ".data", data, static_cast<double>(out.size()), "rows × cols = ");
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
