// The offline page: "Try again" loads the address asked for (the page is shown in its place).
document.getElementById("again").addEventListener("click", () => location.reload());
