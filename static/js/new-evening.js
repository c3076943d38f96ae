/* New evening: the first-dealer list shows the names as they are typed. */
(function () {
  "use strict";
  var select = document.querySelector('select[name="first_dealer"]');
  if (!select) return;
  function sync() {
    Array.prototype.forEach.call(select.options, function (option) {
      var input = document.querySelector('input[name="player_' + option.value + '"]');
      var name = input && input.value.trim();
      option.textContent = name ? name : option.dataset.label || option.textContent;
      option.hidden = !name;
    });
  }
  Array.prototype.forEach.call(select.options, function (o) { o.dataset.label = o.textContent; });
  document.addEventListener("input", function (e) { if (e.target.name && e.target.name.indexOf("player_") === 0) sync(); });
  sync();
})();
