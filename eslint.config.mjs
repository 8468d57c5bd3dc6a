// The page scripts' linter (make lint-js): ESLint's recommended rules on static/js/. The scripts are
// classic <script>s sharing one global scope: each page loads static/js/junction.js first, which
// defines Junction; a few others define one global each (declared here, defined in their file).
import js from "@eslint/js";
import globals from "globals";

const OURS = { Junction: "readonly", JunctionPWA: "readonly", JunctionRejoin: "readonly", SlipwayDraw: "readonly" };

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser, ...OURS } },
    rules: {
      // A callback's unused arguments and a catch's unused error name are part of its shape.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^(Junction|JunctionPWA|JunctionRejoin)$" }],
      // The files that define those globals declare them with const: not a redeclaration.
      "no-redeclare": ["error", { builtinGlobals: false }],
    },
  },
  {
    files: ["static/js/sw.js", "static/js/sw_push.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
