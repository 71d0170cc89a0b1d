// The host's page: loads a saved or uploaded record into the table (every seat's page
// follows it). Only the host token may; a seat's link has no such control.
(function () {
  "use strict";

  const token = document.getElementById("records").dataset.token;
  const message = document.getElementById("message");

  function say(text, isError) {
    message.textContent = text || "";
    message.className = isError ? "error" : "";
  }

  async function api(method, path, body) {
    const options = { method: method, cache: "no-store", headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch("/api/" + token + "/" + path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = { error: "the server answered " + response.status };
    }
    if (!response.ok) throw new Error((data && data.error) || "the server answered " + response.status);
    return data;
  }

  async function listSaved() {
    const select = document.getElementById("saved");
    const data = await api("GET", "records");
    select.textContent = "";
    for (const name of data.records) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      select.append(option);
    }
    if (!data.records.length) {
      const none = document.createElement("option");
      none.value = "";
      none.textContent = "(no saved records)";
      select.append(none);
    }
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
  document.getElementById("upload").addEventListener("change", function (e) {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = function () {
      let record = null;
      try {
        record = JSON.parse(reader.result);
      } catch (err) {
        return say(file.name + " is not a JSON record", true);
      }
      load({ record: record });
    };
    reader.onerror = function () { say("cannot read " + file.name, true); };
    reader.readAsText(file);
  });
  listSaved().catch(function (err) { say(err.message, true); });
})();
