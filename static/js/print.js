/* The printable sheet's Print button (no inline handlers: the Content Security Policy forbids them). */
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});
