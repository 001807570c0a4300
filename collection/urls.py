"""The collection's pages. Included by decks/urls.py, so that their names stay in the
`decks` namespace they always had (`decks:collection`, `decks:collection-product`,
`decks:built`)."""

from django.urls import path

from . import views

urlpatterns = [
    path("decks/<int:pk>/built/", views.deck_built, name="built"),
    path("collection/", views.collection, name="collection"),
    path("collection/products/", views.collection_product, name="collection-product"),
]
