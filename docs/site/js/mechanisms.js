// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 e233a888fe04d66c0d96d8291377e3b540402ff3666b0c9756814b9206490d0e.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
});
})(function (dependencies, factory) { betspec.define("mechanisms", dependencies, factory); });
