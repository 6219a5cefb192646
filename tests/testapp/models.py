"""Models shared by the test suite."""

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.query_utils import DeferredAttribute


class Person(models.Model):
    name = models.CharField(max_length=100)
    age = models.IntegerField(null=True, blank=True)
    created = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["age"]), models.Index(fields=["name"])]


class PersonCustomId(models.Model):
    customid = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=100)
    age = models.IntegerField(null=True, blank=True)
    created = models.BooleanField(default=False)


class Message(models.Model):
    text = models.TextField()
    user_id = models.IntegerField()
    read = models.BooleanField(default=False)


class Todo(models.Model):
    text = models.CharField(max_length=200)
    complete = models.BooleanField(default=False)


class Note(models.Model):
    text = models.TextField()
    user_id = models.IntegerField()


class Sample(models.Model):
    """One column of every type the query language converts values for."""

    char = models.CharField(max_length=100, blank=True, default="")
    text = models.TextField(blank=True, default="")
    email = models.EmailField(blank=True, default="")
    integer = models.IntegerField(null=True, blank=True)
    big = models.BigIntegerField(null=True, blank=True)
    small = models.PositiveSmallIntegerField(null=True, blank=True)
    number = models.FloatField(null=True, blank=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    flag = models.BooleanField(default=False)
    maybe = models.BooleanField(null=True, blank=True)
    day = models.DateField(null=True, blank=True)
    moment = models.DateTimeField(null=True, blank=True)
    clock = models.TimeField(null=True, blank=True)
    uid = models.UUIDField(null=True, blank=True)
    secret = models.CharField(max_length=100, blank=True, default="")
    owner = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL)


class ShoutingAttribute(DeferredAttribute):
    """Reads the stored text in capitals, as money or encrypted fields change what is read."""

    def __get__(self, instance, cls=None):
        value = super().__get__(instance, cls)
        return value.upper() if instance is not None and isinstance(value, str) else value

    def __set__(self, instance, value):
        # A data descriptor: read on every access, even once the value is loaded.
        instance.__dict__[self.field.attname] = value


class ShoutingCharField(models.CharField):
    descriptor_class = ShoutingAttribute

    def pre_save(self, model_instance, add):
        # The text as set is stored; only reading it shouts.
        return model_instance.__dict__[self.attname]


class Label(models.Model):
    text = ShoutingCharField(max_length=100)


class UserManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email, password=None, **extra_fields):
        user = self.model(email=self.normalize_email(email), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email, password=None, **extra_fields):
        extra_fields.setdefault("is_staff", True)
        extra_fields.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra_fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A user who logs in with an email address, as Feathers' generated apps do."""

    email = models.EmailField(unique=True)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
