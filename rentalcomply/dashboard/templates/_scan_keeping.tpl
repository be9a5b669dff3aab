<section class="card" aria-labelledby="document-images">
  <h2 id="document-images">{{_('Scanned documents')}}</h2>
  % if not scan_on:
  <p class="hint">{{_('Scanning is off on this server: guests type their document details.')}}</p>
  % end
  <p class="muted">{{_('Guests can scan their passport or ID card on the check-in page; the fields are filled from its machine-readable lines. The photo itself is not kept unless you turn this on: then it is kept encrypted and erased with the guest’s other details at the end of the retention period.')}}</p>
  <p class="hint">{{_('In Spain the data protection agency holds that accommodation may not keep copies of identity documents: leave this off for Spanish properties.')}}</p>
  <form method="post" action="/dashboard/settings/account/document-images" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <label class="check"><input type="checkbox" name="keep_document_images" value="on"{{!' checked' if keep_document_images else ''}}> {{_('Keep document images')}}</label>
    <div class="actions"><button type="submit">{{_('Save changes')}}</button></div>
  </form>
</section>
