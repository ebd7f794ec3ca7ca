// The print views' "Print this page" button (the browser's own Print works without it).
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
