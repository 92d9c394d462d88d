// The engine's declaration of its JavaScript API, made where each function is bound. Every binding file
// (bind_<module>.cpp) opens its block with POSITIONAL_TOPIC(<module>) (below) and registers its functions
// through it: that binds each adapter with Embind and records beside it the parameters as JavaScript passes
// them (name in camelCase, kind, range or byte cap, default), what it returns, and an ordinary call. The
// module exports the whole record as JSON (describeEngine(), js_declaration.cpp); the build runs each module
// once in Node (describe-engine.mjs) and writes engine-declaration.mjs, from which the facade
// (engine-facade.mjs) builds `signatures`, `viewSignatures` and `limits` and checks every argument, and
// engine-api.json and engine-api.md, the whole declaration for tests and for people. The module that
// describes itself is engine-described, built from the same binding files for that alone; the modules
// the site ships bind without recording (POSITIONAL_DECLARATION below), and the build checks that each
// binds exactly what the declaration gives it.
//
// Who checks what: the facade checks each argument once, its type and the declared range or cap, and
// fills in the defaults; the adapter takes those checked values and only converts them (JavaScript →
// Eigen and back); the engine's own C++ checks what each value means (d even, base > 0 and not 1, …)
// and names the argument and the rule. No number is typed twice: caps and defaults come from limits.hpp
// or the module's own header.
#pragma once

#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "positional/limits.hpp"

namespace positional::js {

// What the facade accepts for a parameter, and what the adapter then receives:
//   kInt       a whole number within [min, max]                      → double (whole() makes it an int64)
//   kNum       any number; NaN and the infinities too (the engine judges them) → double
//   kBool      true or false                                         → bool
//   kVec       an array, typed array or array-like of numbers, at most kMaxOutputDoubles long
//                                                                    → val, a Float64Array
//   kOptionalVec  such an array, or null                             → val, null or a Float64Array
//   kMat       { rows, cols, data } with rows × cols numbers in data → val, data a Float64Array
//   kText      a string of at most `max` UTF-8 bytes, well-formed and without NUL → std::string
//   kSeed      a whole number from 0 to 2^53 − 1, or a string of at most `max` characters (the engine
//              reads the digits)                                     → val, a number or a string
//   kOptions   an object whose keys are among `fields`, each checked as its field; the adapter gets a
//              new object with every field set (a default where one was left out) → val
//   kCallback  a function or null; the adapter gets null or a relay that never throws (the facade keeps
//              the callback's exception and rethrows it once the call has returned) → val
enum class Kind : unsigned char {
  kInt,
  kNum,
  kBool,
  kVec,
  kOptionalVec,
  kMat,
  kText,
  kSeed,
  kOptions,
  kCallback
};

// The default that stands in for an argument left out (or passed as undefined); kNone: required.
enum class Fallback : unsigned char { kNone, kNumber, kTrue, kFalse, kNull, kText, kFields };

// One parameter of a bound function. Built with the constexpr functions of `param` below, so that a
// declaration is constant data in the module rather than code.
struct Param {
  const char* name = nullptr;  // camelCase, as callers know it (the engine's messages use snake_case)
  Kind kind = Kind::kNum;
  Fallback fallback = Fallback::kNone;
  double min = 0;                 // kInt
  double max = 0;                 // kInt; kText: UTF-8 bytes; kSeed: characters
  double number = 0;              // Fallback::kNumber
  const char* text = nullptr;     // Fallback::kText
  const Param* fields = nullptr;  // kOptions
  std::size_t field_count = 0;    // kOptions
};

namespace param {

// A parameter of the given kind, required unless a fallback is given; the builders below add the rest.
constexpr Param of_kind(const char* name, Kind kind, Fallback fallback = Fallback::kNone) {
  Param p;
  p.name = name;
  p.kind = kind;
  p.fallback = fallback;
  return p;
}

constexpr Param integer(const char* name, std::int64_t min, std::int64_t max) {
  Param p = of_kind(name, Kind::kInt);
  p.min = static_cast<double>(min);
  p.max = static_cast<double>(max);
  return p;
}

constexpr Param integer(const char* name, std::int64_t min, std::int64_t max, std::int64_t fallback) {
  Param p = integer(name, min, max);
  p.fallback = Fallback::kNumber;
  p.number = static_cast<double>(fallback);
  return p;
}

constexpr Param number(const char* name) { return of_kind(name, Kind::kNum); }

constexpr Param number(const char* name, double fallback) {
  Param p = number(name);
  p.fallback = Fallback::kNumber;
  p.number = fallback;
  return p;
}

constexpr Param boolean(const char* name) { return of_kind(name, Kind::kBool); }

constexpr Param boolean(const char* name, bool fallback) {
  Param p = boolean(name);
  p.fallback = fallback ? Fallback::kTrue : Fallback::kFalse;
  return p;
}

constexpr Param vector(const char* name) { return of_kind(name, Kind::kVec); }

// An array of numbers or null, null when left out.
constexpr Param optional_vector(const char* name) {
  return of_kind(name, Kind::kOptionalVec, Fallback::kNull);
}

constexpr Param matrix(const char* name) { return of_kind(name, Kind::kMat); }

constexpr Param text(const char* name, std::int64_t max_bytes) {
  Param p = of_kind(name, Kind::kText);
  p.max = static_cast<double>(max_bytes);
  return p;
}

constexpr Param text(const char* name, std::int64_t max_bytes, const char* fallback) {
  Param p = text(name, max_bytes);
  p.fallback = Fallback::kText;
  p.text = fallback;
  return p;
}

// A numpy seed: a whole number, or a decimal string of at most kMaxSeedDigits characters.
constexpr Param seed(const char* name) {
  Param p = of_kind(name, Kind::kSeed);
  p.max = static_cast<double>(kMaxSeedDigits);
  return p;
}

// An object of named fields; `{}` when left out, if every field has a default.
template <std::size_t N>
constexpr Param options(const char* name, const Param (&fields)[N]) {
  Param p = of_kind(name, Kind::kOptions, Fallback::kFields);
  p.fields = fields;
  p.field_count = N;
  for (const Param& field : fields) {
    if (field.fallback == Fallback::kNone) p.fallback = Fallback::kNone;
  }
  return p;
}

// A function the engine calls back, or null; null when left out.
constexpr Param callback(const char* name) { return of_kind(name, Kind::kCallback, Fallback::kNull); }

// The parameters most position functions share: a model width and the base.
inline constexpr Param kDimension = integer("d", 1, kMaxOutputDoubles);
inline constexpr Param kBase = number("base", kDefaultBase);
// YaRN's ramp bounds (in rotations over the training length), taken by every function that applies YaRN.
inline constexpr Param kBetaFast = number("betaFast", kDefaultBetaFast);
inline constexpr Param kBetaSlow = number("betaSlow", kDefaultBetaSlow);

}  // namespace param

// Records a declaration (the Topic methods below bind first, then call these).
void declare_function(const char* topic, const char* name, std::size_t arity, const char* doc,
                      std::initializer_list<Param> params, const char* example);
void declare_view(const char* topic, const char* function, const char* name, std::size_t arity);
void declare_scratch_function(const char* topic, const char* name, const char* export_name, const char* doc,
                              std::initializer_list<Param> params, const char* example, std::size_t rows,
                              std::initializer_list<const char*> scalars);
void declare_internal(const char* topic, const char* name, std::size_t arity);
void declare_limit(const char* name, double value);
void declare_constant(const char* name, double value);

// Whether this object file records declarations. Only engine-described, the module the build runs to
// read the declaration, is compiled with them; the modules the site ships bind the same functions without
// (POSITIONAL_DECLARATION=0: 2 KB of gzip less on the first screen). There every Topic method is inlined
// and only binds, so nothing refers to the parameters, texts and examples and none is linked.
#ifndef POSITIONAL_DECLARATION
#define POSITIONAL_DECLARATION 1
#endif
#if POSITIONAL_DECLARATION
#define POSITIONAL_BINDS_AND_DECLARES
#else
#define POSITIONAL_BINDS_AND_DECLARES [[gnu::always_inline]]
#endif

// The functions one binding file registers, named after its engine module (its topic, e.g. "rope").
// One per binding file (POSITIONAL_TOPIC); every method binds with Embind and declares in one step.
class Topic {
 public:
  explicit constexpr Topic(const char* name) : name_(name) {}

  // A function of the engine, bound as `name` (camelCase). `doc`: what it returns, and every cap that is
  // not a parameter's own range. `params`: one per argument of `adapter`, in call order (the build stops
  // when the counts differ). `example`: an ordinary call, a JSON array of its arguments (the Node suite
  // makes it before and after every hostile call).
  template <class Result, class... Args>
  POSITIONAL_BINDS_AND_DECLARES void function(const char* name, Result (*adapter)(Args...),
                                              [[maybe_unused]] const char* doc,
                                              [[maybe_unused]] std::initializer_list<Param> params,
                                              [[maybe_unused]] const char* example) const {
    emscripten::function(name, adapter);
#if POSITIONAL_DECLARATION
    declare_function(name_, name, sizeof...(Args), doc, params, example);
#endif
  }

  // The zero-copy variant of `function` (engine.views.<function>, the same parameters), bound as `name`.
  template <class Result, class... Args>
  POSITIONAL_BINDS_AND_DECLARES void view([[maybe_unused]] const char* function, const char* name,
                                          Result (*adapter)(Args...)) const {
    emscripten::function(name, adapter);
#if POSITIONAL_DECLARATION
    declare_view(name_, function, name, sizeof...(Args));
#endif
  }

  // A function on the scratch path (bind_scratch.cpp): no Embind binding but the plain WebAssembly export
  // `export_name` (the number of positions, then every other argument as a number), which leaves `rows`
  // rows of angles over the positions and then one number per entry of `scalars` ("name" or
  // "object.field") in the block. The facade offers it as a view too.
  POSITIONAL_BINDS_AND_DECLARES void scratch_function(
      [[maybe_unused]] const char* name, [[maybe_unused]] const char* export_name,
      [[maybe_unused]] const char* doc, [[maybe_unused]] std::initializer_list<Param> params,
      [[maybe_unused]] const char* example, [[maybe_unused]] std::size_t rows,
      [[maybe_unused]] std::initializer_list<const char*> scalars) const {
#if POSITIONAL_DECLARATION
    declare_scratch_function(name_, name, export_name, doc, params, example, rows, scalars);
#endif
  }

  // A function of the module's own machinery (releasing views, the scratch block): bound as `name` and
  // declared, so that every function the module exports is accounted for, but not offered by the facade.
  template <class Result, class... Args>
  POSITIONAL_BINDS_AND_DECLARES void internal(const char* name, Result (*adapter)(Args...)) const {
    emscripten::function(name, adapter);
#if POSITIONAL_DECLARATION
    declare_internal(name_, name, sizeof...(Args));
#endif
  }

  // A cap callers may read (`limits.<name>` in JavaScript), and a constant (DEFAULT_BASE …).
  POSITIONAL_BINDS_AND_DECLARES void limit([[maybe_unused]] const char* name,
                                           [[maybe_unused]] double value) const {
#if POSITIONAL_DECLARATION
    declare_limit(name, value);
#endif
  }
  POSITIONAL_BINDS_AND_DECLARES void limit(const char* name, std::int64_t value) const {
    limit(name, static_cast<double>(value));
  }
  POSITIONAL_BINDS_AND_DECLARES void constant([[maybe_unused]] const char* name,
                                              [[maybe_unused]] double value) const {
#if POSITIONAL_DECLARATION
    declare_constant(name, value);
#endif
  }

 private:
  [[maybe_unused]] const char* name_;
};

// A binding file's block of registrations, its topic named once:
//   POSITIONAL_TOPIC(rope) { topic.function("ropeFrequencies", &frequencies_js, …); … }
// is the EMSCRIPTEN_BINDINGS block positional_rope (run while the module starts), whose body sees a
// Topic named "rope" as `topic` and the parameter kinds of param (vector, integer, kBase …) unqualified.
// Used inside namespace positional::js.
#define POSITIONAL_TOPIC(name)                                                 \
  namespace param {                                                            \
  static void bind_##name(const Topic& topic);                                 \
  }                                                                            \
  EMSCRIPTEN_BINDINGS(positional_##name) { param::bind_##name(Topic(#name)); } \
  void param::bind_##name(const Topic& topic)

}  // namespace positional::js
