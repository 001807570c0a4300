from cardsite.management.samples import PublishSamplesCommand
from decks.samples import publish_sample_decks


class Command(PublishSamplesCommand):
    help = (
        "Publish the example lists shipped with the sample data as public decks of an "
        "account (the demo account by default). Running it again adds nothing."
    )
    published = "sample decks of {username}"

    def publish(self, user):
        return publish_sample_decks(owner=user)
