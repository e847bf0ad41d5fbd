// Claims ask first, as resigning does: the first click turns the button into a question,
// a second click within four seconds makes the claim. The fifty-round challenge, open from
// the first turn, waits folded under "Claims" until a player looks for it.

/** Makes `button` act only on a second click: the first asks `question`. */
export function confirmClick(button, question, act) {
  let armed = false;
  let timer = null;
  const label = button.textContent;
  button.addEventListener('click', () => {
    if (!armed) {
      armed = true;
      button.textContent = question;
      button.classList.add('armed');
      timer = setTimeout(() => {
        armed = false;
        button.textContent = label;
        button.classList.remove('armed');
      }, 4000);
      return;
    }
    clearTimeout(timer);
    armed = false;
    button.textContent = label;
    button.classList.remove('armed');
    act();
  });
}

/** Claims open all game long (the challenge): folded away rather than shown as offers. */
export const QUIET_CLAIMS = new Set(['challenge']);
