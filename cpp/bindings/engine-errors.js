// Linked with --post-js. Every engine function returns an Error object instead of throwing
// from inside C++ (see guarded() in js_interop.hpp); once the runtime is up, each function the
// bindings registered is wrapped so that JavaScript callers get an ordinary thrown Error.
(function wrapEngineFunctions() {
  var runtimeKeys = Object.keys(Module);
  addOnPostRun(function () {
    Object.keys(Module).forEach(function (name) {
      var raw = Module[name];
      if (typeof raw !== 'function' || runtimeKeys.indexOf(name) !== -1) return;
      var wrapped = function () {
        var result = raw.apply(this, arguments);
        if (result instanceof Error) throw result;
        return result;
      };
      // Embind's overload dispatcher looks its table up on Module[name]: keep it reachable.
      if (raw.overloadTable) wrapped.overloadTable = raw.overloadTable;
      Module[name] = wrapped;
    });
  });
})();
