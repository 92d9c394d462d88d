// The record of what the binding files declare (js_declaration.hpp), and describeEngine(), which hands it
// to JavaScript as JSON. Linked into engine-described only, the module the build runs to read it.
#include "js_declaration.hpp"

#include <emscripten/bind.h>

#include <cstddef>
#include <iterator>  // std::size
#include <string>
#include <vector>

#include "positional/validate.hpp"  // format_number

namespace positional::js {
namespace {

// Declarations are made while the module starts (the EMSCRIPTEN_BINDINGS blocks run as constructors) and
// read when describeEngine() is called; each adds its JSON object to this text.
struct Record {
  std::string functions;
  std::string limits;
  std::string constants;
};

Record& record() {
  static Record r;
  return r;
}

void append_string(std::string& out, const char* text) {
  out += '"';
  for (const char* c = text; *c != '\0'; ++c) {
    const auto byte = static_cast<unsigned char>(*c);
    if (byte == '"' || byte == '\\') {
      out += '\\';
      out += *c;
    } else if (byte < 0x20) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += *c;
    }
  }
  out += '"';
}

void append_key(std::string& out, const char* key) {
  if (out.back() != '{') out += ',';
  append_string(out, key);
  out += ':';
}

// A text field, left out where the module was built without its text (POSITIONAL_DECLARATION_TEXT).
void append_text(std::string& out, const char* key, const char* text) {
  if (text == nullptr) return;
  append_key(out, key);
  append_string(out, text);
}

void append_number(std::string& out, const char* key, double value) {
  append_key(out, key);
  out += format_number(value);
}

// The names JavaScript knows the kinds by, in the order of Kind.
constexpr const char* kKindNames[] = {"int", "num",  "bool", "vec",     "optionalVec",
                                      "mat", "text", "seed", "options", "callback"};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(Kind::kCallback) + 1,
              "one name for each Kind");

const char* kind_name(Kind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

void append_params(std::string& out, const Param* params, std::size_t count);

void append_param(std::string& out, const Param& p) {
  out += '{';
  append_key(out, "name");
  append_string(out, p.name);
  append_key(out, "kind");
  append_string(out, kind_name(p.kind));
  if (p.kind == Kind::kInt) {
    append_number(out, "min", p.min);
    append_number(out, "max", p.max);
  }
  if (p.kind == Kind::kText || p.kind == Kind::kSeed) append_number(out, "cap", p.max);
  if (p.kind == Kind::kOptions) {
    append_key(out, "fields");
    append_params(out, p.fields, p.field_count);
  }
  switch (p.fallback) {
    case Fallback::kNone:
      break;
    case Fallback::kNumber:
      append_number(out, "default", p.number);
      break;
    case Fallback::kTrue:
    case Fallback::kFalse:
      append_key(out, "default");
      out += p.fallback == Fallback::kTrue ? "true" : "false";
      break;
    case Fallback::kNull:
      append_key(out, "default");
      out += "null";
      break;
    case Fallback::kText:
      append_key(out, "default");
      append_string(out, p.text);
      break;
    case Fallback::kFields:
      append_key(out, "default");
      out += "{}";
      break;
  }
  out += '}';
}

void append_params(std::string& out, const Param* params, std::size_t count) {
  out += '[';
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ',';
    append_param(out, params[i]);
  }
  out += ']';
}

// Opens the next function's object with the fields every kind of declaration has.
std::string& open_function(const char* topic, const char* name) {
  std::string& out = record().functions;
  if (!out.empty()) out += ',';
  out += '{';
  append_key(out, "name");
  append_string(out, name);
  append_key(out, "topic");
  append_string(out, topic);
  return out;
}

void append_entry(std::string& out, const char* name, double value) {
  if (!out.empty()) out += ',';
  append_string(out, name);
  out += ':';
  out += format_number(value);
}

// The whole declaration: { functions: [...], limits: {...}, constants: {...} }. Each function has name,
// topic and, as it was declared, arity, doc, params, example (a JSON text, parsed by the reader), viewOf,
// scratch { export, rows, scalars } or internal: true.
std::string describe_engine() {
  const Record& r = record();
  return "{\"functions\":[" + r.functions + "],\"limits\":{" + r.limits + "},\"constants\":{" + r.constants +
         "}}";
}

}  // namespace

void declare_function(const char* topic, const char* name, std::size_t arity, const char* doc,
                      std::initializer_list<Param> params, const char* example) {
  std::string& out = open_function(topic, name);
  append_number(out, "arity", static_cast<double>(arity));
  append_text(out, "doc", doc);
  append_key(out, "params");
  append_params(out, params.begin(), params.size());
  append_text(out, "example", example);
  out += '}';
}

void declare_view(const char* topic, const char* function, const char* name, std::size_t arity) {
  std::string& out = open_function(topic, name);
  append_number(out, "arity", static_cast<double>(arity));
  append_key(out, "viewOf");
  append_string(out, function);
  out += '}';
}

void declare_scratch_function(const char* topic, const char* name, const char* export_name, const char* doc,
                              std::initializer_list<Param> params, const char* example, std::size_t rows,
                              std::initializer_list<const char*> scalars) {
  std::string& out = open_function(topic, name);
  append_text(out, "doc", doc);
  append_key(out, "params");
  append_params(out, params.begin(), params.size());
  append_text(out, "example", example);
  append_key(out, "scratch");
  out += '{';
  append_key(out, "export");
  append_string(out, export_name);
  append_number(out, "rows", static_cast<double>(rows));
  append_key(out, "scalars");
  out += '[';
  for (const char* scalar : scalars) {
    if (out.back() != '[') out += ',';
    append_string(out, scalar);
  }
  out += "]}}";
}

void declare_internal(const char* topic, const char* name, std::size_t arity) {
  std::string& out = open_function(topic, name);
  append_number(out, "arity", static_cast<double>(arity));
  append_key(out, "internal");
  out += "true}";
}

void declare_limit(const char* name, double value) { append_entry(record().limits, name, value); }

void declare_constant(const char* name, double value) { append_entry(record().constants, name, value); }

EMSCRIPTEN_BINDINGS(positional_declaration) { emscripten::function("describeEngine", &describe_engine); }

}  // namespace positional::js
