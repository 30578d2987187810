import { h, notice } from "../dom.js";

let cached = null;

/** The docs are static HTML from this origin (public/partials/docs.html), inserted as written. */
export const docsView = {
  title: "Docs",
  async render() {
    cached ??= fetch("/partials/docs.html").then((response) => (response.ok ? response.text() : null));
    const markup = await cached.catch(() => null);
    if (!markup) {
      cached = null;
      return h(
        "section",
        {},
        h("h1", {}, "Docs"),
        notice("error", "The docs could not be loaded. Reload to try again."),
      );
    }
    const template = document.createElement("template");
    template.innerHTML = markup;
    const origin = location.origin;
    for (const code of template.content.querySelectorAll("[data-origin]")) {
      code.textContent = code.textContent.replaceAll("https://syllabi.example", origin);
    }
    // Hash routes own the URL fragment, so in-page links scroll instead of navigating.
    for (const link of template.content.querySelectorAll("[data-jump]")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        const target = document.getElementById(link.dataset.jump);
        target?.setAttribute("tabindex", "-1");
        target?.scrollIntoView();
        target?.focus();
      });
    }
    return h("section", { class: "prose" }, template.content);
  },
};
