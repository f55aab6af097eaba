"""Static files as production serves them: whitenoise's compressed, hashed copies, with the
import statements of ES modules (static/ui/table/*.js) rewritten to the hashed names too, so
a new release's page never loads a module cached from the one before."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
