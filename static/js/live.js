/* Scorebook share page: the copy button of the read-only link.
   Without JavaScript the button stays hidden and the link is a selectable text field. */
(function () {
  "use strict";

  function copy(input) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(input.value);
    }
    input.focus();
    input.select();
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  document.querySelectorAll("[data-select-on-focus]").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });

  document.querySelectorAll("[data-copy-target]").forEach(function (button) {
    var input = document.getElementById(button.dataset.copyTarget);
    var status = document.querySelector("[data-copy-status]");
    if (!input) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(input).then(
        function () {
          if (status) { status.textContent = button.dataset.copied; }
        },
        function () {
          input.focus();
          input.select();
          if (status) { status.textContent = button.dataset.failed; }
        }
      );
    });
  });
})();
