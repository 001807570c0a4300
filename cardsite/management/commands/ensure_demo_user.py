from django.contrib.auth.models import User
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create (or reset) the demo account used by `make run` and print its credentials."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="demo-cards-2026")

    def handle(self, *args, username, password, **options):
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        user.is_staff = True
        user.is_superuser = True
        user.set_password(password)
        user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo account {'created' if created else 'ready'}: "
                f"username {username!r}, password {password!r} (staff: reaches /admin/)"
            )
        )
