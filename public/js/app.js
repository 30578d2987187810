import { platform } from "./api.js";
import { h, notice } from "./dom.js";
import { billingView } from "./views/billing.js";
import { dashboardView } from "./views/dashboard.js";
import { docsView } from "./views/docs.js";
import { keysView } from "./views/keys.js";
import { messagesView } from "./views/messages.js";
import { playgroundView } from "./views/playground.js";
import { signInView, signUpView } from "./views/auth.js";

/** Hash routes: each view is `{ title, signedIn?, render(context) → Promise<Node> }`. */
const routes = {
  "/signin": signInView,
  "/signup": signUpView,
  "/dashboard": dashboardView,
  "/keys": keysView,
  "/billing": billingView,
  "/messages": messagesView,
  "/docs": docsView,
  "/playground": playgroundView,
};

const session = { account: null };
const main = document.getElementById("main");

function currentRoute() {
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  return { path: path || "/", query: new URLSearchParams(query) };
}

export function navigate(path) {
  if (location.hash === `#${path}`) render();
  else location.hash = path;
}

async function refreshSession() {
  const me = await platform("GET", "/me");
  session.account = me.ok ? me.data.account : null;
  for (const item of document.querySelectorAll("[data-when]")) {
    item.hidden = (item.dataset.when === "signed-in") !== Boolean(session.account);
  }
  return session.account;
}

function markCurrentLink(path) {
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.getAttribute("href") === `#${path}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

let renderCount = 0;
async function render() {
  const renderId = ++renderCount;
  let { path, query } = currentRoute();
  if (!routes[path]) path = session.account ? "/dashboard" : "/signin";
  const view = routes[path];
  if (view.signedIn && !session.account) path = "/signin";
  if (view.signedOut && session.account) path = "/dashboard";
  const target = routes[path];
  markCurrentLink(path);
  document.title = `${target.title} · Syllabi developers`;
  main.setAttribute("aria-busy", "true");
  delete main.dataset.route;
  let content;
  try {
    content = await target.render({ account: session.account, query, navigate, refreshSession });
  } catch (error) {
    console.error(error);
    content = h(
      "div",
      {},
      h("h1", {}, target.title),
      notice("error", "Something went wrong while loading this page. Reload to try again."),
    );
  }
  if (renderId !== renderCount) return;
  main.replaceChildren(content);
  main.dataset.route = path;
  main.removeAttribute("aria-busy");
  const heading = main.querySelector("h1");
  if (heading && document.activeElement !== document.body) {
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }
}

document.getElementById("sign-out").addEventListener("click", async () => {
  await platform("POST", "/logout");
  await refreshSession();
  navigate("/signin");
});

window.addEventListener("hashchange", render);
await refreshSession();
render();
