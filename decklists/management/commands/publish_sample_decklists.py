from cardsite.management.samples import PublishSamplesCommand
from decklists.samples import SAMPLE_AUTHOR, publish_sample_decklists


class Command(PublishSamplesCommand):
    help = (
        "Publish the example lists shipped with the sample data as decklists of the demo "
        f"account and of a second sample author ({SAMPLE_AUTHOR}), with a few likes, a follow "
        "and a comment, each marked as sample data. Running it again adds nothing."
    )
    published = "sample decklists"

    def publish(self, user):
        return publish_sample_decklists(demo=user)
