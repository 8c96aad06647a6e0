// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 6d13ecc11bb61ef3180aab40050e3b39d550f3841abf3e429a4452a7c5db3505.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
});
})(function (dependencies, factory) { betspec.define("mechanisms", dependencies, factory); });
