<div class="secret">
  <label for="secret-value">{{label}}</label>
  <div class="copyrow">
    <input id="secret-value" class="mono" readonly value="{{value}}" autocomplete="off" spellcheck="false">
    <button type="button" class="copy" data-copy="secret-value" data-copied="{{_('Copied')}}" hidden>{{_('Copy')}}</button>
  </div>
  <p class="notice warn">{{_('This is shown once and never again: store it now.')}}</p>
</div>
