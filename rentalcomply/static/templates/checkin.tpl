% rebase('layout', title=t('page.title') + ' · ' + property_name, body_class='page-checkin', scripts=['js/country-search.js', 'js/checkin.js'])
<a class="skip" href="#checkin-form">{{t('page.title')}}</a>
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
      <p class="stay">{{t('page.stay', **stay)}}</p>
    </div>
    <nav class="languages" aria-label="{{t('page.language')}}">
      <ul>
      % for code, name in languages:
        <li><a href="/checkin/{{token}}?lang={{code}}" hreflang="{{code}}" lang="{{code}}"{{!' aria-current="true"' if code == lang else ''}}>{{code.upper()}}<span class="visually-hidden"> {{name}}</span></a></li>
      % end
      </ul>
    </nav>
  </div>
</header>
<main class="shell" id="main">
  <h1>{{t('page.title')}}</h1>
  <p class="lead">{{intro}}</p>
  <div class="alert" id="summary" role="alert" tabindex="-1"{{!'' if summary else ' hidden'}}>{{summary}}</div>
  % if party_error:
  <p class="alert" role="alert">{{party_error}}</p>
  % end
  % if get('tourist_tax'):
  % include('_tourist_tax', tax=tourist_tax)
  % end
  <form id="checkin-form" method="post" action="/checkin/{{token}}?lang={{lang}}" novalidate
        data-token="{{token}}" data-lang="{{lang}}" data-arrival="{{arrival_iso}}"
        data-saved="{{messages['page.saved']}}" data-saving="{{messages['page.saving']}}"
        data-offline="{{messages['page.offline']}}" data-summary="{{messages['msg.summary']}}"
        data-step-guest="{{messages['page.step_guest']}}" data-step-confirm="{{messages['page.step_confirm']}}"
        data-step-sign="{{messages['page.step_sign']}}" data-progress="{{messages['page.progress']}}"
        data-next="{{messages['page.next']}}" data-back="{{messages['page.back']}}"
        data-checking="{{messages['page.checking']}}" data-resume="{{resume}}"
        data-review-title="{{messages['page.review_title']}}" data-review-intro="{{messages['page.review_intro']}}"
        data-edit="{{messages['page.edit']}}">
    % for block in blocks:
    <fieldset class="card guest" id="guest-{{block['index']}}" data-guest="{{block['index']}}" data-title="{{block['title']}}">
      <legend><span class="guest-number" aria-hidden="true">{{block['number']}}</span>{{block['title']}}</legend>
      % if block['error']:
      <p class="error">{{block['error']}}</p>
      % end
      % include('_scan', block=block)
      % for section, fields in block['sections']:
      <div class="section section-{{section}}">
        % if section == 'document' and block['document_asked']:
        <h2 class="section-title">{{t('page.document')}}</h2>
          % if block['minor_documents_hint']:
        <p class="hint section-hint">{{t('page.minor_documents', age=document_age)}}</p>
          % end
        % elif section == 'address':
        <h2 class="section-title">{{t('page.address')}}</h2>
        % elif section == 'contact':
        <h2 class="section-title">{{t('page.contact')}}</h2>
        <p class="hint section-hint">{{t('hint.contact')}}</p>
        % end
        <div class="grid">
        % for f in fields:
          % described = ' '.join(x for x in ((f['id'] + '-hint') if f['hint'] else '', (f['id'] + '-error') if f['error'] else '') if x)
          <div class="field field-{{f['kind']}}{{' field-half' if f['half'] else ''}}"
               {{!('data-when="%s" data-when-value="%s"' % f['when']) if f['when'] else ''}}
               {{!('data-also="%s" data-also-values="%s"' % f['also']) if f['also'] else ''}}
               {{!('data-unless="%s"' % ' '.join('%s=%s' % pair for pair in f['unless'])) if f['unless'] else ''}}
               {{!('data-min-age="%d"' % f['min_age']) if f['min_age'] is not None else ''}}
               {{!('data-max-age="%d"' % f['max_age']) if f['max_age'] is not None else ''}}>
            % if f['kind'] == 'signature':
            <span class="label" id="{{f['id']}}-label">{{f['label']}}</span>
            <div class="signature" data-target="{{f['id']}}">
              <canvas width="640" height="220" role="img" aria-labelledby="{{f['id']}}-label"{{!(' aria-describedby="%s"' % described) if described else ''}}></canvas>
              <button type="button" class="button-link signature-clear">{{t('page.clear')}}</button>
            </div>
            <div class="signature-typed" hidden>
              <label for="{{f['id']}}-typed" class="label-quiet">{{t('page.type_signature')}}</label>
              <input type="text" id="{{f['id']}}-typed" maxlength="80" autocomplete="name" data-signature-for="{{f['id']}}">
            </div>
            <input type="hidden" name="{{f['name']}}" id="{{f['id']}}" value="{{f['value']}}">
            <noscript><p class="hint">{{t('page.noscript')}}</p></noscript>
            % else:
            <label for="{{f['id']}}">{{f['label']}}{{!' <span class="optional">' if f['optional'] else ''}}{{t('page.optional') if f['optional'] else ''}}{{!'</span>' if f['optional'] else ''}}</label>
              % attrs = ' aria-describedby="%s"' % described if described else ''
              % attrs += ' aria-invalid="true"' if f['error'] else ''
              % if f['options']:
            <select id="{{f['id']}}" name="{{f['name']}}" autocomplete="{{f['autocomplete']}}"{{!attrs}}>
              <option value="">{{t('choice.choose')}}</option>
                % top = f.get('top') or []
                % in_top = any(value == f['value'] for value, _ in top)
                % if top:
              <optgroup label="★">
                  % for value, text in top:
                <option value="{{value}}"{{!' selected' if value == f['value'] else ''}}>{{text}}</option>
                  % end
              </optgroup>
              <optgroup label="A–Z">
                % end
                % for value, text in f['options']:
              <option value="{{value}}"{{!' selected' if value == f['value'] and not in_top else ''}}>{{text}}</option>
                % end
                % if top:
              </optgroup>
                % end
            </select>
              % else:
                % kind = {'date': 'date', 'email': 'email', 'phone': 'tel'}.get(f['kind'], 'text')
            <input type="{{kind}}" id="{{f['id']}}" name="{{f['name']}}" value="{{f['value']}}" maxlength="200" autocomplete="{{f['autocomplete']}}"{{!' inputmode="email"' if kind == 'email' else ''}}{{!' spellcheck="false" autocapitalize="characters"' if f['name'].endswith(('number', 'province', 'tax_id')) else ''}}{{!(' list="%s"' % f['list']) if f.get('list') else ''}}{{!attrs}}>
              % end
            % end
            % if f['hint']:
            <p class="hint" id="{{f['id']}}-hint">{{f['hint']}}</p>
            % end
            <p class="error" id="{{f['id']}}-error"{{!'' if f['error'] else ' hidden'}}>{{f['error'] or ''}}</p>
          </div>
        % end
        </div>
      </div>
      % end
    </fieldset>
    % end
    % for list_id, entries in pick_lists.items():
    <datalist id="{{list_id}}">
      % for entry in entries:
      <option value="{{entry}}"></option>
      % end
    </datalist>
    % end
    % # The last step of the page's script; without the script, simply the end of the long form.
    <div class="step-final" id="step-final">
      <section class="card privacy" aria-labelledby="privacy-title">
        <h2 id="privacy-title">{{t('page.privacy_title')}}</h2>
        % for paragraph in privacy:
        <p>{{paragraph}}</p>
        % end
        <div class="check">
          <input type="checkbox" id="consent" name="consent" value="yes"{{!' checked' if consent else ''}}{{!' aria-invalid="true" aria-describedby="consent-error"' if consent_error else ''}}>
          <label for="consent">{{t('page.consent')}}</label>
        </div>
        <p class="error" id="consent-error"{{!'' if consent_error else ' hidden'}}>{{consent_error or ''}}</p>
      </section>
      <div class="actions">
        <button type="submit" class="button-primary">{{t('page.submit')}}</button>
      </div>
    </div>
    <p class="save-state" id="save-state" role="status" aria-live="polite"></p>
  </form>
</main>
