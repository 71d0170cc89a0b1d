// What every page of the table shares: its HTTP calls (JSON in and out, a refusal's one
// line thrown as an Error) and reading a record file a person picked.
(function () {
  "use strict";

  window.tableApi = function (token) {
    return async function api(method, path, body) {
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
      if (!response.ok) {
        throw new Error((data && data.error) || "the server answered " + response.status);
      }
      return data;
    };
  };

  window.readRecordFile = function (input) {
    return new Promise(function (resolve, reject) {
      const file = input.files && input.files[0];
      if (!file) return reject(new Error("choose a record file first"));
      const reader = new FileReader();
      reader.onload = function () {
        try {
          resolve(JSON.parse(reader.result));
        } catch (err) {
          reject(new Error(file.name + " is not a JSON record"));
        }
      };
      reader.onerror = function () { reject(new Error("cannot read " + file.name)); };
      reader.readAsText(file);
    });
  };
})();
