class ExportError(Exception):
    """export_bundle refused or failed: one line naming the network, the export and what to fix."""
