import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      ".data",
      "coverage",
      "test-results",
      "public/vendor",
      "drizzle/meta",
      "dist",
      "scratch",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      eqeqeq: ["error", "always"],
    },
  },
  {
    files: ["public/**/*.js"],
    languageOptions: {
      globals: {
        window: "readonly",
        document: "readonly",
        fetch: "readonly",
        navigator: "readonly",
        location: "readonly",
        TextDecoder: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        URLSearchParams: "readonly",
        URL: "readonly",
        FormData: "readonly",
        Intl: "readonly",
        HTMLElement: "readonly",
        alert: "readonly",
        confirm: "readonly",
      },
    },
  },
);
