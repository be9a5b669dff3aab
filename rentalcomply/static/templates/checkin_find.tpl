% rebase('layout', title=t('find.title') + ' · ' + property_name, body_class='page-checkin page-find')
<header class="topbar">
  <div class="shell topbar-row">
    <div>
      <p class="brand">{{property_name}}</p>
      % if cin:
      <p class="cin"><abbr lang="it" title="Codice identificativo nazionale">CIN</abbr> <span lang="it">{{cin}}</span></p>
      % end
      % if get('licence'):
      <p class="cin licence" id="licence-number"><span lang="es">{{licence}}</span></p>
      % end
    </div>
    <nav class="languages" aria-label="{{t('page.language')}}">
      <ul>
      % for code, name in languages:
        <li><a href="/checkin/p/{{token}}?lang={{code}}" hreflang="{{code}}" lang="{{code}}"{{!' aria-current="true"' if code == lang else ''}}>{{code.upper()}}<span class="visually-hidden"> {{name}}</span></a></li>
      % end
      </ul>
    </nav>
  </div>
</header>
<main class="shell shell-narrow" id="main">
  <h1>{{t('find.title')}}</h1>
  <p class="lead">{{t('find.intro')}}</p>
  % if error:
  <p class="alert" id="find-error" role="alert">{{error}}</p>
  % end
  <form class="card" id="find-form" method="post" action="/checkin/p/{{token}}?lang={{lang}}" novalidate>
    <div class="field">
      <label for="reference">{{t('find.reference')}}</label>
      <input type="text" id="reference" name="reference" value="{{reference}}" maxlength="64"
             autocomplete="off" autocapitalize="characters" spellcheck="false" required
             aria-describedby="reference-hint">
      <p class="hint" id="reference-hint">{{t('find.reference_hint')}}</p>
    </div>
    <div class="field">
      <label for="arrival">{{t('find.arrival')}}</label>
      <input type="date" id="arrival" name="arrival" value="{{arrival}}">
    </div>
    <div class="field">
      <label for="phone_last4">{{t('find.phone')}}</label>
      <input type="tel" id="phone_last4" name="phone_last4" value="{{phone_last4}}" maxlength="4"
             inputmode="numeric" pattern="[0-9]{4}" autocomplete="off">
    </div>
    <div class="actions">
      <button type="submit" class="button-primary">{{t('find.submit')}}</button>
    </div>
  </form>
</main>
