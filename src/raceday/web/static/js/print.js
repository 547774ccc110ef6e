// The Print button of a print page opens the browser's print dialog.
const button = document.getElementById("print-button");
if (button) button.addEventListener("click", () => window.print());
