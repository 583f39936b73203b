// ESLint for the site's JavaScript (`make lint` runs `npx eslint --config site/eslint.config.mjs
// site`). Versions pinned in package.json. Browser modules, one classic script, the worker, node tools.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["site/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-use-before-define": ["error", { functions: false, classes: true }],
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ["site/web/js/early.js"],
    languageOptions: { ecmaVersion: 5, sourceType: "script", globals: { ...globals.browser } },
    rules: { "no-var": "off", "prefer-const": "off" },
  },
  {
    files: ["site/web/js/worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["site/web/sw.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "script",
      globals: { ...globals.serviceworker, __VERSION__: "readonly", __FILES__: "readonly" },
    },
  },
  {
    files: ["site/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
];
