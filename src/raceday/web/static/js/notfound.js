// The page for an address the server does not know: its words in the reader's language.
import { languageButton, translatePage } from "./i18n.js";

translatePage();
document.getElementById("lang").append(languageButton());
