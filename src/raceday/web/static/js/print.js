// The Print pages (made by the server in English): their words in the reader's language,
// a language switch in the toolbar, and the Print button opens the browser's print dialog.
import { languageButton, translatePage } from "./i18n.js";

translatePage();
document.querySelector(".toolbar")?.append(languageButton());
const button = document.getElementById("print-button");
if (button) button.addEventListener("click", () => window.print());
