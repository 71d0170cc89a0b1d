// The host's page: loads a saved or uploaded record into the table (every seat's page
// follows it), and shares a saved record with the seats (each replays it as its own seat).
// Only the host token may; a seat's link has no such control.
(function () {
  "use strict";

  const api = window.tableApi(document.getElementById("records").dataset.token); // static/api.js
  const message = document.getElementById("message");

  function say(text, isError) {
    message.textContent = text || "";
    message.className = isError ? "error" : "";
  }

  function option(value, text) {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = text;
    return node;
  }

  async function listSaved() {
    const select = document.getElementById("saved");
    const data = await api("GET", "records");
    select.textContent = "";
    const shared = new Set(data.shared || []);
    for (const name of data.records) {
      select.append(option(name, name + (shared.has(name) ? " (the seats may open it)" : "")));
    }
    if (!data.records.length) select.append(option("", "(no saved records)"));
  }

  async function load(body) {
    try {
      const data = await api("POST", "load", body);
      say("Loaded: " + data.decisions + " decisions made" +
          (data.waiting_for ? ", the table waits for " + data.waiting_for : "") + ".");
    } catch (err) {
      say(err.message, true);
    }
  }

  document.getElementById("load").addEventListener("click", function () {
    const name = document.getElementById("saved").value;
    if (!name) return say("no saved record to load", true);
    load({ name: name });
  });
  document.getElementById("share").addEventListener("click", async function () {
    const name = document.getElementById("saved").value;
    if (!name) return say("no saved record to share", true);
    try {
      await api("POST", "share", { name: name });
      say("Shared " + name + ": each seat may now replay it as its own seat.");
      await listSaved();
    } catch (err) {
      say(err.message, true);
    }
  });
  document.getElementById("upload").addEventListener("change", async function (e) {
    try {
      load({ record: await window.readRecordFile(e.target) });
    } catch (err) {
      say(err.message, true);
    }
  });
  listSaved().catch(function (err) { say(err.message, true); });
})();
