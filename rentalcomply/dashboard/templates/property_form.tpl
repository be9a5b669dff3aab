% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/properties">{{_('Properties')}}</a></p><h1>{{_('New property')}}</h1></div>
% if errors:
<div class="notice error" role="alert"><p>{{_('Please correct the fields marked below.')}}</p></div>
% end
<section class="card">
<form method="post" action="/dashboard/properties" class="stack" id="property-form" data-property-form="{{form_data}}">
  % include('_property_fields.tpl')
  <div class="actions" data-after-country{{!'' if values.get('country') else ' hidden'}}><button type="submit" class="primary">{{_('Create property')}}</button></div>
</form>
</section>
<script src="/static/js/property-form.js" defer></script>
