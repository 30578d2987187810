import { platform } from "../api.js";
import { h, notice } from "../dom.js";
import { dateTime } from "../format.js";

function messageCard(message) {
  return h(
    "article",
    { class: "card message" },
    h("h3", {}, message.subject),
    h("p", { class: "hint" }, dateTime(message.createdAt)),
    // Plain text from our own mailer, shown as text (never as HTML).
    h("pre", { class: "message-body" }, message.text),
  );
}

function postCard(post) {
  return h(
    "article",
    { class: "card message" },
    h("h3", {}, post.title),
    h("p", { class: "hint" }, dateTime(post.postedAt)),
    h("p", { class: "message-body" }, post.body),
  );
}

/** Receipts, notices and changelog posts. Without SMTP this is where Syllabi's email arrives. */
export const messagesView = {
  title: "Messages",
  signedIn: true,
  async render() {
    const [inbox, changelog] = await Promise.all([
      platform("GET", "/messages"),
      platform("GET", "/changelog"),
    ]);
    const section = h("section", {}, h("h1", {}, "Messages"));

    section.append(h("h2", {}, "Your email"));
    if (!inbox.ok) section.append(notice("error", "Your messages could not be loaded. Reload to try again."));
    else if (inbox.data.messages.length === 0)
      section.append(h("p", { class: "hint" }, "No messages yet. Receipts and notices appear here."));
    else section.append(h("div", { id: "message-list" }, ...inbox.data.messages.map(messageCard)));

    section.append(h("h2", {}, "Changelog"));
    if (!changelog.ok) section.append(notice("error", "The changelog could not be loaded."));
    else if (changelog.data.posts.length === 0)
      section.append(h("p", { class: "hint" }, "No changelog posts yet."));
    else section.append(h("div", { id: "changelog-list" }, ...changelog.data.posts.map(postCard)));
    return section;
  },
};
