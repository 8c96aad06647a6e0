// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 91336b9ed673de8c9b92c2adaa099774cc89332dd13ec3c73775d53a66d80d10.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
});
})(function (dependencies, factory) { betspec.define("mechanisms", dependencies, factory); });
