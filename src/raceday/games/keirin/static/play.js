// The phone page loads `<game>-play.js`; KEIRIN's phone module is keirin-phone.js.
export { mount } from "./phone.js";
