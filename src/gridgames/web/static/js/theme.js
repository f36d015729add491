// Light and dark themes: remembered per browser, the system preference by default.
const KEY = "gridgames-theme";

export function initTheme(button) {
  const saved = localStorage.getItem(KEY);
  const dark = saved ? saved === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  setTheme(dark ? "dark" : "light");
  if (button) button.addEventListener("click", toggleTheme);
}

export function toggleTheme() {
  const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  setTheme(next);
  localStorage.setItem(KEY, next);
}

function setTheme(name) {
  document.documentElement.dataset.theme = name;
}
