/* Scorebook scoring page: presets the tricks to the contract's need, shows the
   per-declarer steppers for misère and piccolo, steps tricks, keeps the screen
   awake. Every form also works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function checkedContract(form) {
    return form.querySelector('input[name="contract"]:checked');
  }

  function syncContractForm(form) {
    var contract = checkedContract(form);
    var exact = contract && contract.dataset.exact === "1";
    var side = form.querySelector(".tricks-side");
    var each = form.querySelector(".tricks-each");
    if (side) side.hidden = Boolean(exact);
    if (each) each.hidden = !exact;
    var declarers = Array.prototype.map.call(
      form.querySelectorAll('input[name="declarers"]:checked'), function (i) { return i.value; });
    form.querySelectorAll(".tricks-each .each").forEach(function (row) {
      row.hidden = declarers.indexOf(row.dataset.player) === -1;
    });
    var changed = form.querySelector(".opt-changed");
    if (changed) changed.hidden = !(contract && contract.dataset.changed === "1");
    var exposed = form.querySelector(".opt-exposed");
    if (exposed) exposed.hidden = !(contract && contract.dataset.exposed === "1");
  }

  function presetTricks(form, contract) {
    var needs = contract.dataset.needs;
    var side = form.querySelector('.tricks-side input[name="tricks"]');
    if (side) side.value = needs;
    form.querySelectorAll(".tricks-each input").forEach(function (input) { input.value = needs; });
  }

  function limitDeclarers(form, changedBox) {
    var contract = checkedContract(form);
    if (!contract) return;
    var most = contract.dataset.declarers === "2" ? 2 : Number(contract.dataset.max || 1);
    var boxes = Array.prototype.filter.call(
      form.querySelectorAll('input[name="declarers"]:checked'), function (b) { return b !== changedBox; });
    while (boxes.length >= most + (changedBox && changedBox.checked ? 0 : 1) && boxes.length) {
      boxes.shift().checked = false; // the earliest tap gives way to the newest
    }
  }

  function syncClassic(form) {
    var input = form.querySelector('input[name="tricks"][data-other]');
    if (!input) return;
    var out = form.querySelector(input.dataset.other);
    var n = parseInt(input.value, 10);
    if (out) out.textContent = isNaN(n) ? "" : String(13 - Math.max(0, Math.min(13, n)));
  }

  function syncAll(root) {
    (root || document).querySelectorAll("form.record-contract").forEach(syncContractForm);
    (root || document).querySelectorAll("form.record-classic").forEach(syncClassic);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.record-contract");
    if (form) {
      if (event.target.name === "contract") {
        presetTricks(form, event.target);
        limitDeclarers(form, null);
      } else if (event.target.name === "declarers" && event.target.checked) {
        limitDeclarers(form, event.target);
      }
      syncContractForm(form);
    }
    var classic = event.target.closest("form.record-classic");
    if (classic) syncClassic(classic);
  });

  document.addEventListener("input", function (event) {
    var classic = event.target.closest("form.record-classic");
    if (classic) syncClassic(classic);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (!button) return;
    var input = button.parentElement.querySelector("input");
    var value = parseInt(input.value, 10);
    if (isNaN(value)) value = Number(input.min || 0);
    value = Math.max(Number(input.min || 0), Math.min(Number(input.max || 13), value + Number(button.dataset.step)));
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  document.addEventListener("htmx:afterSwap", function (event) { syncAll(event.detail.target.parentElement || document); });

  syncAll(document);

  /* Keep the screen awake (Wake Lock API), re-acquired when the page is visible again. */
  var wakeButton = document.getElementById("wake");
  var lock = null;
  var wanted = false;
  function acquire() {
    if (!wanted || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      wakeButton.setAttribute("aria-pressed", "true");
      l.addEventListener("release", function () { lock = null; if (!wanted) wakeButton.setAttribute("aria-pressed", "false"); });
    }).catch(function () { wakeButton.setAttribute("aria-pressed", "false"); });
  }
  if (wakeButton && "wakeLock" in navigator) {
    wakeButton.hidden = false;
    wanted = localStorage.getItem("scorebook-wake") === "1";
    wakeButton.addEventListener("click", function () {
      wanted = !wanted;
      localStorage.setItem("scorebook-wake", wanted ? "1" : "0");
      if (wanted) acquire();
      else if (lock) lock.release();
      wakeButton.setAttribute("aria-pressed", wanted ? "true" : "false");
    });
    document.addEventListener("visibilitychange", acquire);
    acquire();
  }
})();
