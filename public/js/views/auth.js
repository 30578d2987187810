import { platform } from "../api.js";
import { field, h, messageArea, setFieldError } from "../dom.js";

function input(props) {
  return h("input", { type: "text", ...props });
}

/** Shows the server's error next to the field it names (`param`), or above the form. */
function showServerError(result, controls, messages) {
  const { param, message } = result.data;
  const control = param && controls[param];
  if (control) {
    setFieldError(control, message);
    control.focus();
  }
  messages.show("error", message ?? "That did not work. Try again.");
}

export const signInView = {
  title: "Sign in",
  signedOut: true,
  async render({ navigate, refreshSession }) {
    const email = input({ type: "email", name: "email", autocomplete: "email", required: true });
    const password = input({
      type: "password",
      name: "password",
      autocomplete: "current-password",
      required: true,
    });
    const messages = messageArea();
    const submit = h("button", { type: "submit" }, "Sign in");
    const form = h(
      "form",
      { class: "stack card", novalidate: true },
      field("Email", email),
      field("Password", password),
      h("div", { class: "actions" }, submit),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      messages.clear();
      if (!email.value || !password.value) {
        messages.show("error", "Enter your email address and password.");
        return;
      }
      submit.disabled = true;
      const result = await platform("POST", "/login", { email: email.value, password: password.value });
      submit.disabled = false;
      if (!result.ok) {
        messages.show("error", result.data.message ?? "Sign-in failed.");
        password.focus();
        return;
      }
      await refreshSession();
      navigate("/dashboard");
    });
    return h(
      "section",
      { class: "prose" },
      h("h1", {}, "Sign in"),
      messages,
      form,
      h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Create a developer account"), "."),
    );
  },
};

export const signUpView = {
  title: "Sign up",
  signedOut: true,
  async render({ navigate, refreshSession }) {
    const controls = {
      email: input({ type: "email", name: "email", autocomplete: "email", required: true }),
      password: input({
        type: "password",
        name: "password",
        autocomplete: "new-password",
        minlength: 12,
        required: true,
      }),
      name: input({ name: "name", autocomplete: "name", required: true, maxlength: 120 }),
      organisation: input({ name: "organisation", autocomplete: "organization", maxlength: 160 }),
      useCase: h("textarea", { name: "useCase", required: true, minlength: 10, maxlength: 1000, rows: 4 }),
      acceptTerms: h("input", { type: "checkbox", name: "acceptTerms", id: "accept-terms", required: true }),
    };
    const counter = h("span", { class: "hint", "aria-live": "polite" }, "0 / 1,000 characters");
    controls.useCase.addEventListener("input", () => {
      counter.textContent = `${controls.useCase.value.trim().length.toLocaleString("en-GB")} / 1,000 characters`;
    });
    const messages = messageArea();
    const submit = h("button", { type: "submit" }, "Create account");

    const terms = h(
      "div",
      { class: "field" },
      h(
        "label",
        { class: "check", for: "accept-terms" },
        controls.acceptTerms,
        h(
          "span",
          {},
          "I have read and agree to the ",
          h(
            "a",
            { href: "/terms", target: "_blank", rel: "noopener" },
            "developer terms (opens in a new tab)",
          ),
          ", including the duty to show a visible attribution wherever genie chat powers a surface.",
        ),
      ),
    );

    const form = h(
      "form",
      { class: "stack card", novalidate: true },
      field("Email", controls.email),
      field("Password", controls.password, "At least 12 characters. A short phrase is easiest to remember."),
      field("Your name", controls.name),
      field("Organisation (optional)", controls.organisation),
      field(
        "What are you building?",
        controls.useCase,
        "10 to 1,000 characters: who it is for and how you will use Syllabi.",
      ),
      counter,
      terms,
      h("div", { class: "actions" }, submit),
    );

    function validate() {
      const problems = [];
      const check = (control, message) => {
        setFieldError(control, message);
        if (message) problems.push(control);
      };
      check(
        controls.email,
        /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(controls.email.value.trim())
          ? null
          : "Enter a valid email address.",
      );
      check(controls.password, controls.password.value.length >= 12 ? null : "Use at least 12 characters.");
      check(controls.name, controls.name.value.trim() ? null : "Enter your name.");
      const useCase = controls.useCase.value.trim().length;
      check(
        controls.useCase,
        useCase < 10
          ? "Tell us a little more: at least 10 characters."
          : useCase > 1000
            ? "Keep it to 1,000 characters."
            : null,
      );
      check(
        controls.acceptTerms,
        controls.acceptTerms.checked ? null : "You need to agree to the developer terms.",
      );
      return problems;
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      messages.clear();
      const problems = validate();
      if (problems.length) {
        messages.show(
          "error",
          `Please fix ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} below.`,
        );
        problems[0].focus();
        return;
      }
      submit.disabled = true;
      const organisation = controls.organisation.value.trim();
      const result = await platform("POST", "/register", {
        email: controls.email.value.trim(),
        password: controls.password.value,
        name: controls.name.value.trim(),
        ...(organisation ? { organisation } : {}),
        useCase: controls.useCase.value.trim(),
        acceptTerms: true,
      });
      submit.disabled = false;
      if (!result.ok) {
        showServerError(result, controls, messages);
        return;
      }
      await refreshSession();
      navigate("/dashboard");
    });

    return h(
      "section",
      { class: "prose" },
      h("h1", {}, "Create a developer account"),
      h(
        "p",
        {},
        "Make keys, top up and try the API in the playground. The curriculum data unlocks with your first top-up.",
      ),
      messages,
      form,
      h("p", {}, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in"), "."),
    );
  },
};
