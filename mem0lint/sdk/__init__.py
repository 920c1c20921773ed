"""What mem0lint knows about the SDKs themselves: their releases and when callers' APIs changed."""
