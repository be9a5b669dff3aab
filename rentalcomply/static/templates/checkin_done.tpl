% rebase('layout', title=t('page.done_title') + ' · ' + property_name, body_class='page-checkin')
<header class="topbar">
  <div class="shell">
    <p class="brand">{{property_name}}</p>
    % if cin:
    <p class="cin"><abbr lang="it" title="Codice identificativo nazionale">CIN</abbr> <span lang="it">{{cin}}</span></p>
    % end
    % if get('licence'):
    <p class="cin licence" id="licence-number"><span lang="es">{{licence}}</span></p>
    % end
    <p class="stay">{{t('page.stay', **stay)}}</p>
  </div>
</header>
<main class="shell shell-narrow" id="main">
  <section class="card card-message" aria-labelledby="done-title">
    <div class="badge badge-success" aria-hidden="true">✓</div>
    <h1 id="done-title">{{t('page.done_title')}}</h1>
    <p class="lead">{{t('page.done', host=property_name)}}</p>
    % if names:
    <ul class="party">
      % for name in names:
      <li>{{name}}</li>
      % end
    </ul>
    % end
    <p>{{t('page.done_welcome', arrival=stay['arrival'])}}</p>
  </section>
  <section class="card done-details" id="where" aria-labelledby="where-title">
    <h2 id="where-title">{{t('page.done_address')}}</h2>
    % if address:
    <p class="address">{{property_name}}<br>{{address}}</p>
    % end
    <p>{{check_in}}</p>
  </section>
  % if get('tourist_tax'):
  % include('_tourist_tax', tax=tourist_tax)
  % end
  % if access_text:
  <section class="card access" id="access" aria-labelledby="access-title">
    <h2 id="access-title">{{t('access.title')}}</h2>
    <p class="access-text">{{access_text}}</p>
  </section>
  % elif access_waiting:
  <section class="card access" id="access" aria-labelledby="access-title">
    <h2 id="access-title">{{t('access.title')}}</h2>
    <p class="lead">{{access_waiting}}</p>
  </section>
  % end
  % if next_steps:
  <section class="card done-details" id="next" aria-labelledby="next-title">
    <h2 id="next-title">{{t('page.next_title')}}</h2>
    <ul>
      % for step in next_steps:
      <li>{{step}}</li>
      % end
    </ul>
  </section>
  % end
  % if contact['name'] or contact['phone'] or contact['email']:
  <section class="card done-details" id="host-contact" aria-labelledby="contact-title">
    <h2 id="contact-title">{{t('page.contact_title')}}</h2>
    <p>
      % if contact['name']:
      {{contact['name']}}<br>
      % end
      % if contact['phone']:
      <a href="tel:{{contact['phone'].replace(' ', '')}}">{{contact['phone']}}</a><br>
      % end
      % if contact['email']:
      <a href="mailto:{{contact['email']}}">{{contact['email']}}</a>
      % end
    </p>
  </section>
  % end
</main>
