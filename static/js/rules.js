// House-rules editor: remember which contract is open across a save, confirm going back to the preset.
(function () {
  "use strict";
  var form = document.getElementById("rules-form");
  var open = document.getElementById("rules-open");
  if (form && open) {
    var remember = function () {
      var current = form.querySelector("details.contract[open]");
      open.value = current ? current.dataset.key : "";
    };
    form.querySelectorAll("details.contract").forEach(function (details) {
      details.addEventListener("toggle", function () {
        if (details.open) {
          // one open at a time, also where <details name> is not supported
          form.querySelectorAll("details.contract[open]").forEach(function (other) {
            if (other !== details) other.open = false;
          });
        }
        remember();
      });
    });
    remember();
  }
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (!window.confirm(f.dataset.confirm)) event.preventDefault();
    });
  });
})();
