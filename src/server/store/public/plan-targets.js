/* global window, element */
'use strict';

// Which plans the buy form's "For" allows: a plan for yourself only, or for servers only, is greyed out
// for the other target, with the reason beside it in its label (so in its accessible name too). Loaded
// before store.js, which calls `StorePlanTargets.greyOut` at every change of the form (classic scripts share one
// global scope).

/** Greys out `input` (a plan's radio) unless `allowed`, saying which choice under For would allow it. */
function greyOutPlan(input, allowed, target) {
  input.disabled = !allowed;
  const label = input.closest('label');
  label.querySelector('.why')?.remove();
  if (allowed) return;
  const why = target.value ? 'for yourself: choose Myself under For' : 'for a server: choose one under For';
  label.append(element('small', 'why', ` ${why}`));
}

window.StorePlanTargets = { greyOut: greyOutPlan };
