import { platform } from "../api.js";
import { announce, field, h, messageArea, notice } from "../dom.js";
import { dateTime } from "../format.js";

const scopeDescriptions = {
  "curriculum:read": "subjects, trees, search, spec points",
  align: "POST /align",
  chat: "both chat endpoints",
  questions: "question generation",
  "account:read": "GET /account",
};

function secretPanel(secret, keyName) {
  const copyStatus = h("span", { class: "hint", "aria-live": "polite" });
  const copy = h("button", { type: "button", class: "secondary" }, "Copy key");
  const code = h("code", { id: "new-secret" }, secret);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(secret);
      copyStatus.textContent = "Copied to the clipboard.";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      copyStatus.textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
    }
  });
  return notice(
    "warning",
    h("h2", { id: "secret-heading", tabindex: "-1" }, `Your new key “${keyName}”`),
    h(
      "p",
      {},
      h("strong", {}, "This is the only time the key is shown."),
      " Copy it now and keep it in a secret store. It cannot be recovered; if you lose it, revoke it and make another.",
    ),
    h("div", { class: "secret" }, code, copy),
    copyStatus,
  );
}

export const keysView = {
  title: "API keys",
  signedIn: true,
  async render(context) {
    const messages = messageArea();
    const section = h("section", {}, h("h1", {}, "API keys"), messages);
    const listed = await platform("GET", "/keys");
    if (!listed.ok) {
      section.append(notice("error", `Keys could not be loaded: ${listed.data.message ?? listed.status}.`));
      return section;
    }
    const { keys, live, max } = listed.data;
    const atLimit = live >= max;

    // Create
    const name = h("input", {
      type: "text",
      name: "name",
      maxlength: 60,
      required: true,
      autocomplete: "off",
    });
    const scopeBoxes = Object.entries(scopeDescriptions).map(([scope, description]) => {
      const box = h("input", {
        type: "checkbox",
        name: "scopes",
        value: scope,
        checked: true,
        id: `scope-${scope.replace(":", "-")}`,
      });
      return {
        box,
        element: h(
          "label",
          { class: "check", for: box.id },
          box,
          h("span", {}, h("code", {}, scope), ` — ${description}`),
        ),
      };
    });
    const submit = h("button", { type: "submit", disabled: atLimit }, "Create key");
    const createForm = h(
      "form",
      { class: "stack", novalidate: true },
      field("Key name", name, "So you can tell keys apart, e.g. “production server”."),
      h(
        "fieldset",
        {},
        h("legend", {}, "Scopes"),
        h(
          "div",
          { class: "choices" },
          scopeBoxes.map((entry) => entry.element),
        ),
      ),
      h("div", { class: "actions" }, submit),
    );
    createForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      messages.clear();
      const scopes = scopeBoxes.filter((entry) => entry.box.checked).map((entry) => entry.box.value);
      if (!name.value.trim()) {
        messages.show("error", "Give the key a name.");
        name.focus();
        return;
      }
      if (!scopes.length) {
        messages.show("error", "Choose at least one scope.");
        scopeBoxes[0].box.focus();
        return;
      }
      submit.disabled = true;
      const created = await platform("POST", "/keys", { name: name.value.trim(), scopes });
      submit.disabled = false;
      if (created.status === 409 && created.data.error === "key_limit_reached") {
        messages.show("error", limitExplanation(max));
        return;
      }
      if (!created.ok) {
        messages.show("error", created.data.message ?? "The key could not be created.");
        return;
      }
      const fresh = await keysView.render(context);
      fresh
        .querySelector(".message-area")
        .replaceChildren(secretPanel(created.data.secret, created.data.key.name));
      section.replaceWith(fresh);
      fresh.querySelector("#secret-heading").focus();
      announce("Key created. It is shown once.");
    });

    // List
    const rows = keys.map((key) => {
      const actions = h("td", { "data-label": "Action" });
      const showRevoke = () => {
        const revoke = h(
          "button",
          { type: "button", class: "secondary", "aria-label": `Revoke ${key.name}` },
          "Revoke",
        );
        revoke.addEventListener("click", showConfirm);
        actions.replaceChildren(revoke);
        return revoke;
      };
      const showConfirm = () => {
        const confirmButton = h("button", { type: "button", class: "danger" }, "Yes, revoke");
        const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
        actions.replaceChildren(
          h(
            "p",
            { class: "small", role: "alert" },
            `Revoke “${key.name}”? Calls with it stop within a second. This cannot be undone.`,
          ),
          h("div", { class: "actions" }, confirmButton, cancel),
        );
        cancel.addEventListener("click", () => showRevoke().focus());
        confirmButton.addEventListener("click", async () => {
          confirmButton.disabled = true;
          const revoked = await platform("POST", `/keys/${encodeURIComponent(key.id)}/revoke`);
          if (!revoked.ok) {
            messages.show("error", revoked.data.message ?? "The key could not be revoked.");
            confirmButton.disabled = false;
            return;
          }
          const fresh = await keysView.render(context);
          fresh
            .querySelector(".message-area")
            .replaceChildren(notice("success", `Key “${key.name}” revoked.`));
          section.replaceWith(fresh);
          fresh.querySelector("h1").focus();
        });
        confirmButton.focus();
      };
      if (!key.revokedAt) showRevoke();
      return h(
        "tr",
        { class: key.revokedAt ? "revoked" : "" },
        h("td", { "data-label": "Name" }, key.name),
        h("td", { "data-label": "Prefix" }, h("code", {}, `syl_live_${key.prefix}…`)),
        h("td", { "data-label": "Scopes" }, key.scopes.join(", ")),
        h("td", { "data-label": "Created" }, dateTime(key.createdAt)),
        h("td", { "data-label": "Last used" }, key.lastUsedAt ? dateTime(key.lastUsedAt) : "Never"),
        h(
          "td",
          { "data-label": "Status" },
          key.revokedAt
            ? h("span", { class: "badge bad" }, `Revoked ${dateTime(key.revokedAt)}`)
            : h("span", { class: "badge good" }, "Live"),
        ),
        actions,
      );
    });

    section.append(
      h(
        "p",
        {},
        `Send a key as `,
        h("code", {}, "Authorization: Bearer syl_live_…"),
        `. ${live} of ${max} live keys in use.`,
      ),
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Create a key"),
        atLimit ? notice("warning", limitExplanation(max)) : null,
        createForm,
      ),
      h(
        "div",
        { class: "card" },
        h("h2", {}, "Your keys"),
        keys.length
          ? h(
              "div",
              { class: "table-wrap" },
              h(
                "table",
                { class: "responsive-table", id: "keys-table" },
                h(
                  "thead",
                  {},
                  h(
                    "tr",
                    {},
                    ["Name", "Prefix", "Scopes", "Created", "Last used", "Status", "Action"].map((label) =>
                      h("th", { scope: "col" }, label),
                    ),
                  ),
                ),
                h("tbody", {}, rows),
              ),
            )
          : h("p", { class: "muted" }, "No keys yet."),
      ),
    );
    return section;
  },
};

function limitExplanation(max) {
  return `You have ${max} live keys, the most an account can hold. Revoke one you no longer use (below), then create the new key. Revoked keys stay listed for your records but do not count.`;
}
