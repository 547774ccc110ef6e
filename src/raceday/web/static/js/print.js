// The Print pages: the server words them and their sheets in the language the address asks
// for (?lang=); this asks for the reader's language (kept in the browser, as on every page of
// the site), the language button asks again, and the Print button opens the print dialog.
import { language, languageButton, onLanguage, translatePage } from "./i18n.js";

function inLanguage(lang) {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", lang);
  return url.href;
}

const worded = document.body.dataset.lang;
if (worded && worded !== language()) {
  translatePage();  // the toolbar's words at once; the sheets follow with the page
  window.location.replace(inLanguage(language()));
}
onLanguage((lang) => window.location.assign(inLanguage(lang)));
document.querySelector(".toolbar")?.append(languageButton());
const button = document.getElementById("print-button");
if (button) button.addEventListener("click", () => window.print());
