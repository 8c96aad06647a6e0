// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 0a3a61b44fb199fde2d3b7fc04b24d8867746fa3d7106bf3a9be74102de407b3.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
});
})(function (dependencies, factory) { betspec.define("mechanisms", dependencies, factory); });
