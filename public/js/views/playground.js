import { describeError, readNdjson, v1 } from "../api.js";
import { announce, field, h, messageArea, notice } from "../dom.js";
import { pounds } from "../format.js";

/** The pasted key lives in this module only: never stored, gone on reload. */
let pastedKey = "";
let cachedSubjects = null;

function costLine(usage) {
  if (!usage) return null;
  return h(
    "p",
    { class: "notice success cost" },
    `Cost: ${pounds(usage.chargedPence)} · new balance: `,
    h("strong", { class: "balance-after" }, pounds(usage.balancePence)),
  );
}

function errorNotice(result) {
  const hints = {
    topup_required: h("a", { href: "#/billing" }, "Top up on the billing page"),
    insufficient_balance: h("a", { href: "#/billing" }, "Top up on the billing page"),
    revoked_api_key: h("a", { href: "#/keys" }, "Make a new key"),
    invalid_api_key: "Check you pasted the whole key.",
    missing_api_key: "Paste a key above first.",
    insufficient_scope: h("a", { href: "#/keys" }, "Make a key with that scope"),
  };
  const hint = hints[result.data?.error];
  return notice(
    "error",
    h("p", { class: "api-error" }, describeError(result)),
    hint ? h("p", {}, hint) : null,
  );
}

function jsonOutput(data) {
  return h(
    "pre",
    { class: "output", tabindex: "0", "aria-label": "Response body" },
    JSON.stringify(data, null, 2),
  );
}

function requireKey(out) {
  if (pastedKey) return true;
  out.replaceChildren(notice("error", "Paste an API key above first."));
  document.getElementById("playground-key")?.focus();
  return false;
}

async function subjects(out) {
  if (cachedSubjects) return cachedSubjects;
  const result = await v1(pastedKey, "GET", "/subjects");
  if (!result.ok) {
    out.replaceChildren(errorNotice(result));
    return null;
  }
  cachedSubjects = result.data.subjects;
  return cachedSubjects;
}

function subjectLabel(subject) {
  return `${subject.qualification} ${subject.name} — ${subject.examBoard} (${subject.specificationCode})`;
}

function dataPanel() {
  const out = h("div", { "aria-live": "polite" });
  const tree = h("div", { class: "tree" });
  const load = h("button", { type: "button", id: "load-subjects" }, "List subjects");
  const select = h(
    "select",
    { id: "subject-select", disabled: true },
    h("option", { value: "" }, "Load subjects first"),
  );
  const showTree = h("button", { type: "button", class: "secondary", disabled: true }, "Show topic tree");
  load.addEventListener("click", async () => {
    if (!requireKey(out)) return;
    out.replaceChildren(h("p", { class: "muted" }, "Loading…"));
    cachedSubjects = null;
    const list = await subjects(out);
    if (!list) return;
    select.replaceChildren(
      ...list.map((subject) => h("option", { value: subject.id }, subjectLabel(subject))),
    );
    select.disabled = false;
    showTree.disabled = false;
    out.replaceChildren(
      notice("success", `${list.length} subjects. The data endpoints are free now your account is unlocked.`),
    );
  });
  showTree.addEventListener("click", async () => {
    const result = await v1(pastedKey, "GET", `/subjects/${encodeURIComponent(select.value)}/tree`);
    if (!result.ok) {
      out.replaceChildren(errorNotice(result));
      return;
    }
    out.replaceChildren(
      h("p", {}, `${result.data.topicCount} topics, ${result.data.subtopicCount} subtopics.`),
    );
    tree.replaceChildren(
      h(
        "ul",
        {},
        result.data.topics.map((topic) =>
          h(
            "li",
            {},
            h(
              "details",
              {},
              h("summary", {}, topic.name),
              h(
                "ul",
                {},
                topic.subtopics.map((subtopic) =>
                  h("li", {}, subtopic.name, h("span", { class: "muted small" }, ` · ${subtopic.id}`)),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  });
  return h(
    "div",
    { class: "stack" },
    h("p", {}, "The four data endpoints are free once your first top-up confirms."),
    h("div", { class: "actions" }, load),
    field("Subject", select),
    h("div", { class: "actions" }, showTree),
    out,
    tree,
  );
}

async function subjectSelect(id, out) {
  const select = h(
    "select",
    { id },
    h("option", { value: "" }, "Press “Load subjects” (needs unlocked data)"),
  );
  const load = h("button", { type: "button", class: "secondary" }, "Load subjects");
  load.addEventListener("click", async () => {
    if (!requireKey(out)) return;
    const list = await subjects(out);
    if (list)
      select.replaceChildren(
        ...list.map((subject) =>
          h(
            "option",
            { value: subject.id, "data-genie": subject.genie?.shortName ?? "" },
            subjectLabel(subject),
          ),
        ),
      );
  });
  return { select, load };
}

async function alignPanel() {
  const out = h("div", { "aria-live": "polite" });
  const { select, load } = await subjectSelect("align-subject", out);
  const subjectId = h("input", { type: "text", id: "align-subject-id", placeholder: "or type a subject id" });
  const text = h(
    "textarea",
    { id: "align-text", rows: 4, maxlength: 20000 },
    "Plants make glucose by photosynthesis, using light energy absorbed by chlorophyll.",
  );
  const run = h("button", { type: "submit" }, "Align (1p)");
  const form = h(
    "form",
    { class: "stack" },
    field("Subject", select),
    h("div", { class: "actions" }, load),
    field("Subject id (overrides the list)", subjectId),
    field("Text to align", text),
    h("div", { class: "actions" }, run),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!requireKey(out)) return;
    run.disabled = true;
    const result = await v1(pastedKey, "POST", "/align", {
      subjectId: subjectId.value.trim() || select.value,
      text: text.value,
    });
    run.disabled = false;
    if (!result.ok) return out.replaceChildren(errorNotice(result));
    out.replaceChildren(
      costLine(result.data.usage),
      h(
        "ol",
        {},
        (result.data.matches ?? []).map((match) =>
          h(
            "li",
            {},
            `${match.topicName} › ${match.subtopicName} `,
            h("span", { class: "muted" }, `(score ${Number(match.score).toFixed(2)})`),
          ),
        ),
      ),
      h("details", {}, h("summary", {}, "Raw response"), jsonOutput(result.data)),
    );
  });
  return form;
}

async function chatPanel() {
  const out = h("div", { "aria-live": "polite" });
  const log = h("div", { class: "chat-log", id: "chat-log" });
  const mode = h(
    "select",
    { id: "chat-mode" },
    h("option", { value: "genie" }, "A subject's genie"),
    h("option", { value: "custom" }, "A custom genie"),
  );
  const { select, load } = await subjectSelect("chat-subject", out);
  const genieName = h("input", {
    type: "text",
    id: "chat-genie",
    placeholder: "short name, e.g. from a subject's genie",
  });
  const customName = h("input", { type: "text", id: "custom-name", value: "Revision buddy", maxlength: 60 });
  const customSubject = h("input", {
    type: "text",
    id: "custom-subject",
    value: "GCSE Biology",
    maxlength: 120,
  });
  const style = h(
    "select",
    { id: "custom-style" },
    ["friendly", "socratic", "concise", "step-by-step"].map((value) => h("option", { value }, value)),
  );
  const genieFields = h(
    "div",
    { class: "stack" },
    field("Subject", select),
    h("div", { class: "actions" }, load),
    field("Genie short name (overrides the list)", genieName),
  );
  const customFields = h(
    "div",
    { class: "stack", hidden: true },
    field("Genie name", customName),
    field("Subject", customSubject),
    field("Teaching style", style),
  );
  mode.addEventListener("change", () => {
    genieFields.hidden = mode.value !== "genie";
    customFields.hidden = mode.value !== "custom";
  });
  const message = h("textarea", { id: "chat-message", rows: 3, maxlength: 4000 }, "What is osmosis?");
  const send = h("button", { type: "submit" }, "Send (4p per reply)");
  const reset = h("button", { type: "button", class: "secondary" }, "New conversation");
  const conversation = [];
  reset.addEventListener("click", () => {
    conversation.length = 0;
    log.replaceChildren();
    out.replaceChildren();
  });

  const form = h(
    "form",
    { class: "stack" },
    field("Chat with", mode),
    genieFields,
    customFields,
    log,
    field("Your message", message),
    h("div", { class: "actions" }, send, reset),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!requireKey(out) || !message.value.trim()) return;
    let path;
    let body;
    if (mode.value === "genie") {
      const shortName = genieName.value.trim() || select.selectedOptions[0]?.dataset.genie;
      if (!shortName) {
        out.replaceChildren(notice("error", "Choose a subject or type a genie short name."));
        return;
      }
      path = `/genies/${encodeURIComponent(shortName)}/chat`;
      body = {};
    } else {
      path = "/chat";
      body = {
        genie: {
          name: customName.value.trim(),
          subject: customSubject.value.trim(),
          teachingStyle: style.value,
        },
      };
    }
    const turn = { role: "user", content: message.value.trim() };
    body.messages = [...conversation, turn];
    body.stream = true;
    send.disabled = true;
    out.replaceChildren();
    log.append(h("div", { class: "bubble user" }, turn.content));
    const { response, failure } = await v1(pastedKey, "POST", path, body, { raw: true });
    if (failure) {
      send.disabled = false;
      return out.replaceChildren(errorNotice(failure));
    }
    if (!response.ok) {
      send.disabled = false;
      const text = await response.text();
      let data = {};
      try {
        data = JSON.parse(text);
      } catch {
        data = { message: text };
      }
      log.lastElementChild.remove();
      return out.replaceChildren(errorNotice({ status: response.status, data }));
    }
    conversation.push(turn);
    const reply = h("div", { class: "bubble assistant", "aria-live": "off" });
    const events = h("ol", { class: "small muted", id: "chat-events" });
    log.append(reply);
    let replyText = "";
    try {
      await readNdjson(response, (line) => {
        events.append(h("li", {}, line.type === "delta" ? `delta “${line.text}”` : line.type));
        if (line.type === "start") reply.dataset.chatId = line.id;
        else if (line.type === "delta") {
          replyText += line.text;
          reply.textContent = replyText;
        } else if (line.type === "safeguarding") {
          log.insertBefore(
            notice(
              "warning",
              h("strong", {}, "Support resources"),
              h(
                "ul",
                {},
                (line.resources ?? []).map((resource) =>
                  h(
                    "li",
                    {},
                    `${resource.name}: ${resource.contact ?? ""} `,
                    resource.url
                      ? h("a", { href: resource.url, rel: "noopener", target: "_blank" }, resource.url)
                      : null,
                  ),
                ),
              ),
            ),
            reply,
          );
        } else if (line.type === "refusal") {
          out.append(notice("warning", `The genie declined (${line.reason}). Refusals are not charged.`));
        } else if (line.type === "done") {
          out.prepend(costLine(line.usage) ?? "");
          if (line.attribution)
            reply.after(
              h(
                "p",
                { class: "attribution" },
                h(
                  "a",
                  { href: line.attribution.url, target: "_blank", rel: "noopener" },
                  line.attribution.text,
                ),
              ),
            );
          announce(`Reply finished. ${line.usage ? `Cost ${pounds(line.usage.chargedPence)}.` : ""}`);
        } else if (line.type === "error") {
          out.append(
            notice("error", `${line.error}: ${line.message} (refunded ${pounds(line.refundedPence ?? 0)})`),
          );
        }
      });
    } catch {
      out.append(notice("error", "The stream was interrupted."));
    }
    if (replyText) conversation.push({ role: "assistant", content: replyText });
    out.append(h("details", {}, h("summary", {}, "NDJSON events as they arrived"), events));
    send.disabled = false;
    message.value = "";
    message.focus();
  });
  return form;
}

function questionsPanel() {
  const out = h("div", { "aria-live": "polite" });
  const subtopic = h("input", {
    type: "text",
    id: "questions-subtopic",
    placeholder: "e.g. from the topic tree",
  });
  const topic = h("input", { type: "text", id: "questions-topic", value: "Photosynthesis", maxlength: 200 });
  const count = h("input", { type: "number", id: "questions-count", min: 1, max: 20, value: 3 });
  const written = h("input", { type: "checkbox", id: "type-written", checked: true });
  const multiple = h("input", { type: "checkbox", id: "type-multiple", checked: true });
  const run = h("button", { type: "submit" }, "Generate (8p)");
  const form = h(
    "form",
    { class: "stack" },
    field("Subtopic id (used if set)", subtopic),
    field("Or a topic", topic),
    h(
      "fieldset",
      {},
      h("legend", {}, "Question types"),
      h(
        "div",
        { class: "choices" },
        h("label", { class: "check", for: written.id }, written, "Written"),
        h("label", { class: "check", for: multiple.id }, multiple, "Multiple choice"),
      ),
    ),
    field("How many (1–20)", count),
    h("div", { class: "actions" }, run),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!requireKey(out)) return;
    const types = [written.checked ? "written" : null, multiple.checked ? "multiple_choice" : null].filter(
      Boolean,
    );
    const body = {
      ...(subtopic.value.trim() ? { subtopicId: subtopic.value.trim() } : { topic: topic.value.trim() }),
      count: Number(count.value),
      ...(types.length ? { types } : {}),
    };
    run.disabled = true;
    out.replaceChildren(h("p", { class: "muted" }, "Generating…"));
    const result = await v1(pastedKey, "POST", "/questions/generate", body);
    run.disabled = false;
    if (!result.ok) return out.replaceChildren(errorNotice(result));
    out.replaceChildren(
      costLine(result.data.usage),
      h(
        "ol",
        {},
        (result.data.questions ?? []).map((question) =>
          h(
            "li",
            {},
            h(
              "p",
              {},
              question.question,
              question.marks ? ` [${question.marks} ${question.marks === 1 ? "mark" : "marks"}]` : "",
            ),
            question.options
              ? h(
                  "ol",
                  { type: "A" },
                  question.options.map((option) => h("li", {}, option)),
                )
              : null,
            h(
              "details",
              {},
              h("summary", {}, "Mark scheme"),
              h("p", {}, question.markScheme ?? ""),
              question.explanation ? h("p", {}, question.explanation) : null,
            ),
          ),
        ),
      ),
      h("details", {}, h("summary", {}, "Raw response"), jsonOutput(result.data)),
    );
  });
  return form;
}

export const playgroundView = {
  title: "Playground",
  async render() {
    const keyInput = h("input", {
      type: "password",
      id: "playground-key",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "syl_live_…",
      value: pastedKey,
    });
    const keyStatus = messageArea();
    const useKey = h("button", { type: "submit" }, "Use this key");
    const keyForm = h(
      "form",
      { class: "stack card" },
      field(
        "API key",
        keyInput,
        "Keys are shown once when made, so paste one here. It stays in this tab only and is sent straight to /api/v1.",
      ),
      h("div", { class: "actions" }, useKey),
      keyStatus,
    );
    keyForm.addEventListener("submit", (event) => {
      event.preventDefault();
      pastedKey = keyInput.value.trim();
      cachedSubjects = null;
      if (!/^syl_live_\w{20,}$/.test(pastedKey))
        keyStatus.show("error", "That does not look like a Syllabi key (syl_live_…). Paste the whole key.");
      else keyStatus.show("success", "Key ready. Calls below use it.");
    });
    const panels = {
      data: { label: "Subjects and trees", element: dataPanel() },
      align: { label: "Align", element: await alignPanel() },
      chat: { label: "Chat (streaming)", element: await chatPanel() },
      questions: { label: "Questions", element: questionsPanel() },
    };
    const tabList = h("div", { class: "tabs", role: "tablist", "aria-label": "Playground tools" });
    const entries = Object.entries(panels);
    const select = (name, focus) => {
      for (const [other, panel] of entries) {
        const selected = other === name;
        panel.tab.setAttribute("aria-selected", String(selected));
        panel.tab.tabIndex = selected ? 0 : -1;
        panel.container.hidden = !selected;
      }
      if (focus) panels[name].tab.focus();
    };
    for (const [index, [name, panel]] of entries.entries()) {
      panel.tab = h(
        "button",
        { type: "button", role: "tab", id: `tab-${name}`, "aria-controls": `panel-${name}` },
        panel.label,
      );
      panel.container = h(
        "div",
        { role: "tabpanel", id: `panel-${name}`, "aria-labelledby": `tab-${name}`, class: "card" },
        panel.element,
      );
      panel.tab.addEventListener("click", () => select(name, false));
      panel.tab.addEventListener("keydown", (event) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (step) select(entries[(index + step + entries.length) % entries.length][0], true);
      });
      tabList.append(panel.tab);
    }
    select("data", false);
    return h(
      "section",
      {},
      h("h1", {}, "Playground"),
      h(
        "p",
        {},
        "Real calls to ",
        h("code", {}, "/api/v1"),
        " with your key: they are charged at normal prices and show what each cost.",
      ),
      keyForm,
      tabList,
      entries.map(([, panel]) => panel.container),
    );
  },
};
