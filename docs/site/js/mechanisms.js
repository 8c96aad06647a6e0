// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 2e2f75e1a3708d30abf0cf81aa6f09eb3cfe6feba183c33acdb43ee6422febd6.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
});
})(function (dependencies, factory) { betspec.define("mechanisms", dependencies, factory); });
