// neardup explorer: the filter form submits when a choice changes (a
// select, a kind's checkbox), and leaves empty fields out of the URL, so
// that a shared link says only what it filters.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form.filters");
  if (!form) {
    return;
  }
  form.addEventListener("submit", function () {
    for (var el of form.elements) {
      if (el.name && el.value === "") {
        el.disabled = true;
      }
    }
  });
  // Coming back to the page (the back button) finds the fields enabled.
  window.addEventListener("pageshow", function () {
    for (var el of form.elements) {
      el.disabled = false;
    }
  });
  for (var sel of form.querySelectorAll("select, input[type=checkbox]")) {
    sel.addEventListener("change", function () {
      form.requestSubmit();
    });
  }
});
