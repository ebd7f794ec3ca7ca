// The result card: the page shows the card (an SVG made by the server); "Share the picture"
// draws it on a canvas and hands the PNG to the phone's share sheet (Web Share API with a
// file) where the browser can, and otherwise downloads it. Event delegation, so a card that
// arrives with a live update (the share view when the game ends) works too.
(function () {
  "use strict";

  function say(section, text) {
    const status = section.querySelector("[data-card-status]");
    if (status) status.textContent = text;
  }

  async function png(src) {
    const image = new Image();
    const loaded = new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error("the picture did not load"));
    });
    image.src = src;
    await loaded;
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    canvas.getContext("2d").drawImage(image, 0, 0);
    return new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no picture"))), "image/png");
    });
  }

  function download(file) {
    const url = URL.createObjectURL(file);
    const link = document.createElement("a");
    link.href = url;
    link.download = file.name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  async function share(section) {
    const src = section.dataset.cardSrc;
    const name = section.dataset.cardFile || "result.png";
    say(section, t("Making the picture…"));
    let file;
    try {
      const blob = await png(src);
      file = new File([blob], name, { type: "image/png" });
    } catch (error) {
      say(section, t("The picture could not be made on this phone. The text below can be copied instead."));
      return;
    }
    const data = { files: [file], title: section.dataset.cardTitle || "" };
    if (navigator.canShare && navigator.share && navigator.canShare(data)) {
      try {
        await navigator.share(data);
        say(section, t("Shared."));
        return;
      } catch (error) {
        if (error && error.name === "AbortError") {
          say(section, "");
          return;
        }
      }
    }
    download(file);
    say(section, t("The picture is saved in your downloads (%(name)s).", { name: name }));
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-card-share]");
    if (!button) return;
    const section = button.closest("[data-card-src]");
    if (section) share(section);
  });

  function reveal(root) {
    for (const button of root.querySelectorAll("[data-card-share][hidden]")) button.hidden = false;
  }
  document.addEventListener("DOMContentLoaded", () => reveal(document));
  document.addEventListener("htmx:afterSwap", (event) => reveal(event.target));
})();
