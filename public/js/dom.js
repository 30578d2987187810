/** A small element builder: text is always set as text, never parsed as markup. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else if (name.startsWith("on") && typeof value === "function")
      element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name in element && typeof value !== "string") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(
      typeof child === "object" && child.nodeType ? child : document.createTextNode(String(child)),
    );
  }
}

const svgNamespace = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}

let idCounter = 0;
export function uniqueId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** A labelled form field; `hint` is read by screen readers with the control. */
export function field(labelText, control, hint) {
  control.id ||= uniqueId("field");
  const hintId = hint ? `${control.id}-hint` : null;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return h(
    "div",
    { class: "field" },
    h("label", { for: control.id }, labelText),
    hint ? h("span", { class: "hint", id: hintId }, hint) : null,
    control,
  );
}

/** Marks a control invalid with a message next to it, or clears it. */
export function setFieldError(control, message) {
  const errorId = `${control.id}-error`;
  document.getElementById(errorId)?.remove();
  const describedBy = (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter((id) => id && id !== errorId);
  if (message) {
    control.setAttribute("aria-invalid", "true");
    control.insertAdjacentElement(
      "afterend",
      h("span", { class: "hint error-text", id: errorId, role: "alert" }, message),
    );
    describedBy.push(errorId);
  } else {
    control.removeAttribute("aria-invalid");
  }
  if (describedBy.length) control.setAttribute("aria-describedby", describedBy.join(" "));
  else control.removeAttribute("aria-describedby");
}

export function notice(kind, ...children) {
  return h("div", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, ...children);
}

/** A live region whose content is replaced, so each new message is announced. */
export function messageArea() {
  const area = h("div", { class: "message-area", "aria-live": "polite" });
  area.show = (kind, ...children) => area.replaceChildren(notice(kind, ...children));
  area.clear = () => area.replaceChildren();
  return area;
}

export function announce(text) {
  const announcer = document.getElementById("announcer");
  if (!announcer) return;
  announcer.textContent = "";
  setTimeout(() => (announcer.textContent = text), 50);
}
